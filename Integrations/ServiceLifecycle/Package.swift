// swift-tools-version:6.2
import PackageDescription

// Runs an ApplicationHost inside swift-service-lifecycle's ServiceGroup, bridges the host's reports to
// swift-log, and traces and measures the host (swift-distributed-tracing, swift-metrics). It lives in its
// own package so the root package keeps zero dependencies.
//
//     Scripts/test-service-lifecycle.sh                      # from the repository root: build once, test
//     swift run --package-path Integrations/ServiceLifecycle service-lifecycle-example --port 8080
let package = Package(
    name: "ModuleLifecycleServiceLifecycle",
    // The root package's minimums (`Synchronization.Mutex`); Linux has none.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "LifecycleServiceLifecycle", targets: ["LifecycleServiceLifecycle"]),
        .library(name: "LifecycleConfiguration", targets: ["LifecycleConfiguration"]),
        .library(name: "LifecycleObservability", targets: ["LifecycleObservability"]),
        .executable(name: "service-lifecycle-example", targets: ["service-lifecycle-example"]),
        .executable(name: "hummingbird-bench", targets: ["hummingbird-bench"]),
    ],
    dependencies: [
        // The root package, by path. The explicit name keeps the build independent of the name of the
        // directory a clone lives in.
        .package(name: "ModuleLifecycle", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        // Only the example uses it. No traits: the example needs neither swift-configuration nor full
        // Foundation, and leaving them out saves compile time.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0", traits: []),
        // Only `LifecycleConfiguration` uses it. `JSON` (its default) is enough: `FileProvider<JSONSnapshot>`;
        // the in-memory providers need no trait. A program that wants `ReloadingFileProvider` enables
        // `Reloading` in its own dependency on swift-configuration.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: ["JSON"]),
        // `LifecycleObservability`: spans through swift-distributed-tracing, metrics through swift-metrics. The
        // tests use their test doubles (`InMemoryTracing`, `MetricsTestKit`).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // Only the example uses it: `GET /metrics` in Prometheus's text format.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        // Only the benchmark uses it: the end-to-end handler, the load generator and the comparison it shares
        // with the Vapor benchmark.
        .package(path: "../../Benchmarks/EndToEnd"),
    ],
    targets: [
        // The library: `ApplicationHostService`, `ReadinessDrainService` and the logging bridge.
        .target(
            name: "LifecycleServiceLifecycle",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Module switches from swift-configuration: `ModuleSwitches.reading(_:modules:prefix:)`,
        // `ApplicationHost.reloadModules(from:prefix:)` and `ModuleSwitchesWatcher`.
        .target(
            name: "LifecycleConfiguration",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Tracing and metrics for a host: `TracingInstrument` and `MetricsInstrument`, two `LifecycleInstrument`s.
        .target(
            name: "LifecycleObservability",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // An HTTP server whose modules follow the lifecycle, served from a module's work (or, with
        // `--mode service-group`, as a service of a ServiceGroup); the process tests run it.
        .executableTarget(
            name: "service-lifecycle-example",
            dependencies: [
                .target(name: "LifecycleServiceLifecycle"),
                .target(name: "LifecycleObservability"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleRouting", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "LifecycleWork", package: "ModuleLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The benchmark: a Hummingbird handler with everything on a module's request path against the same work
        // by hand, side by side, with a load generator on raw sockets (Docs/Performance.md, "End to end").
        // Release build; CI runs it once, in debug, with `--quick` (`Scripts/test-service-lifecycle.sh`).
        .executableTarget(
            name: "hummingbird-bench",
            dependencies: [
                .product(name: "EndToEndBench", package: "EndToEnd"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LifecycleServiceLifecycleTests",
            dependencies: [
                .target(name: "LifecycleServiceLifecycle"),
                .target(name: "LifecycleConfiguration"),
                .target(name: "LifecycleObservability"),
                // For the tests that host the example's modules in-process (`@testable import`); the
                // others run its binary.
                .target(name: "service-lifecycle-example"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleRouting", package: "ModuleLifecycle"),
                .product(name: "LifecycleTesting", package: "ModuleLifecycle"),
                .product(name: "LifecycleMessaging", package: "ModuleLifecycle"),
                .product(name: "LifecycleWork", package: "ModuleLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ]
)

// Language settings, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
