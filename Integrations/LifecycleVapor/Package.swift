// swift-tools-version:6.2
import PackageDescription

// Runs an ApplicationHost inside a Vapor `Application`: launch in Vapor's async boot, terminate in its
// shutdown, every request in a request scope, each module's routes gated by its lifecycle, and liveness and
// readiness routes. It lives in its own package so the root package keeps zero dependencies.
//
//     Scripts/test-vapor.sh                                  # from the repository root: build once, test
//     swift run --package-path Integrations/LifecycleVapor vapor-example serve --port 8080
//     swift run -c release --package-path Integrations/LifecycleVapor vapor-bench
let package = Package(
    name: "ModuleLifecycleVapor",
    // The root package's minimums (`Synchronization.Mutex`); Linux has none.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "LifecycleVapor", targets: ["LifecycleVapor"]),
        .executable(name: "vapor-example", targets: ["vapor-example"]),
        .executable(name: "vapor-bench", targets: ["vapor-bench"]),
    ],
    dependencies: [
        // The root package, by path. The explicit name keeps the build independent of the name of the
        // directory a clone lives in.
        .package(name: "ModuleLifecycle", path: "../.."),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.0"),
        // Only the benchmark uses it: the end-to-end handler, the load generator and the comparison it shares
        // with the Hummingbird benchmark.
        .package(path: "../../Benchmarks/EndToEnd"),
    ],
    targets: [
        // The library: `Application.useModules(_:)`, `VaporModuleHost`, the request scope middleware, the
        // module route gates, the health and admin routes.
        .target(
            name: "LifecycleVapor",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
        // Two of the example's feature modules (users, todos), discovered by the plugin.
        .target(
            name: "ExampleFeatures",
            dependencies: [
                .target(name: "LifecycleVapor"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "Vapor", package: "vapor"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        // The example server: its `configure.swift` is a few lines; its third module owns work
        // (LifecycleWork). The plugin's `.discovered` merges ExampleFeatures' manifest.
        .executableTarget(
            name: "vapor-example",
            dependencies: [
                .target(name: "ExampleFeatures"),
                .target(name: "LifecycleVapor"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "LifecycleWork", package: "ModuleLifecycle"),
                .product(name: "Vapor", package: "vapor"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        // The benchmark: a request through the request scope and a module's gated route against plain Vapor
        // routing, and a handler with everything on its path (scope, services, router, a message) against the
        // same work by hand, side by side, with a load generator on raw sockets. Release build; not run in CI.
        .executableTarget(
            name: "vapor-bench",
            dependencies: [
                .target(name: "LifecycleVapor"),
                .product(name: "EndToEndBench", package: "EndToEnd"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
        .testTarget(
            name: "LifecycleVaporTests",
            dependencies: [
                .target(name: "LifecycleVapor"),
                .target(name: "ExampleFeatures"),
                // For the tests that configure the example's app in-process (`@testable import`); the
                // process tests run its binary.
                .target(name: "vapor-example"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "LifecycleWork", package: "ModuleLifecycle"),
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
    ]
)

// Swift 6 language mode, and `any` spelled out for every existential, in every target.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
