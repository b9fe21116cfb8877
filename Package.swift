// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "ModuleLifecycle",
    // `Synchronization.Mutex` needs these on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "LifecycleCore", targets: ["LifecycleCore"]),
        .library(name: "LifecycleProxy", targets: ["LifecycleProxy"]),
        .executable(name: "lifecycle-demo", targets: ["lifecycle-demo"]),
    ],
    targets: [
        .target(name: "LifecycleCore"),
        .target(
            name: "LifecycleProxy",
            dependencies: [.target(name: "LifecycleCore")]
        ),
        .target(
            name: "DemoModules",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
            ]
        ),
        .executableTarget(
            name: "lifecycle-demo",
            dependencies: [.target(name: "DemoModules")]
        ),
        // The README's quick start, compiled and run by DocumentationTests.
        .executableTarget(
            name: "QuickStartExample",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
            ],
            path: "Examples/QuickStart"
        ),
        .testTarget(
            name: "LifecycleCoreTests",
            dependencies: [.target(name: "LifecycleCore")]
        ),
        .testTarget(
            name: "LifecycleProxyTests",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
            ]
        ),
        .testTarget(
            name: "DemoModulesTests",
            dependencies: [
                .target(name: "DemoModules"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
            ]
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                .target(name: "QuickStartExample"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
            ]
        ),
    ]
)

// Language settings, set once for every target.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
