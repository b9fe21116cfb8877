// swift-tools-version:6.2
import PackageDescription

// Runs an ApplicationHost under a swift-argument-parser command line: modules contribute subcommands,
// discovered; `--help`, usage errors and shell completion scripts come from ArgumentParser. It lives in its
// own package so the root package keeps zero dependencies.
//
//     Scripts/test-argument-parser.sh                          # from the repository root: build once, test
//     swift run --package-path Integrations/ArgumentParser shop --help
let package = Package(
    name: "ModuleLifecycleArgumentParser",
    // The root package's minimums (`Synchronization.Mutex`); Linux has none.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "LifecycleArgumentParser", targets: ["LifecycleArgumentParser"]),
        .executable(name: "shop", targets: ["shop"]),
    ],
    dependencies: [
        // The root package, by path. The explicit name keeps the build independent of the name of the
        // directory a clone lives in.
        .package(name: "ModuleLifecycle", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
    ],
    targets: [
        // The library: `HostCommand` (the root), `HostedCommand` (a subcommand run in a launched host),
        // `CommandContributing` (a module's subcommands) and the exit codes.
        .target(
            name: "LifecycleArgumentParser",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                // `UnixSignal`, and the exit codes it shares with `HostRunner`.
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The example, `shop`: a command-line tool whose modules, in two targets, contribute its subcommands.
        .target(
            name: "ShopInventory",
            dependencies: [
                .target(name: "LifecycleArgumentParser"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                // The shelf is a service the inventory module provides and its commands resolve.
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .target(
            name: "ShopReports",
            dependencies: [
                .target(name: "LifecycleArgumentParser"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .executableTarget(
            name: "shop",
            dependencies: [
                .target(name: "LifecycleArgumentParser"),
                .target(name: "ShopInventory"),
                .target(name: "ShopReports"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .testTarget(
            name: "LifecycleArgumentParserTests",
            dependencies: [
                .target(name: "LifecycleArgumentParser"),
                // The process tests run its binary; it is built with the tests.
                .target(name: "shop"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "LifecycleTesting", package: "ModuleLifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
