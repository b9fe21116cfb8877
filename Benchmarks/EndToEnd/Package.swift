// swift-tools-version:6.2
import PackageDescription

// What the end-to-end benchmarks of the server integrations share (Docs/Performance.md, "End to end"): the
// handler with everything a module's request path can carry and the same work by hand, framework-free; a
// load generator on raw sockets; and the comparison that runs the sides in turn and prints them. The Vapor
// integration's `vapor-bench` and the swift-service-lifecycle integration's `hummingbird-bench` depend on it
// by path and add only their framework's routes. It depends on the root package by path and on nothing else.
let package = Package(
    name: "ModuleLifecycleEndToEnd",
    // The root package's minimums (`Synchronization.Mutex`); Linux has none.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "EndToEndBench", targets: ["EndToEndBench"])
    ],
    dependencies: [
        // The root package, by path. The explicit name keeps the build independent of the name of the
        // directory a clone lives in.
        .package(name: "ModuleLifecycle", path: "../..")
    ],
    targets: [
        .target(
            name: "EndToEndBench",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleMessaging", package: "ModuleLifecycle"),
                .product(name: "LifecycleRouting", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
            ]
        )
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
