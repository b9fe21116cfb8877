// swift-tools-version:6.2
// The package the DocC tutorial "Build a modular server" builds, step by step: two feature targets of
// modules, a server that answers one request per line, and its tests. Scripts/test-tutorial.sh builds it,
// runs its tests and runs the server, as CI does.
import PackageDescription

let package = Package(
    name: "ModularServer",
    platforms: [.macOS(.v15)],
    // ModuleLifecycle, by path: this package lives inside its repository. Yours names its URL.
    dependencies: [.package(name: "ModuleLifecycle", path: "../..")],
    targets: [
        .target(
            name: "Accounts",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "LifecycleMessaging", package: "ModuleLifecycle"),
                .product(name: "LifecycleRouting", package: "ModuleLifecycle"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .target(
            name: "Greetings",
            dependencies: [
                "Accounts",
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "LifecycleMessaging", package: "ModuleLifecycle"),
                .product(name: "LifecycleRouting", package: "ModuleLifecycle"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .executableTarget(
            name: "ModularServer",
            dependencies: [
                "Accounts",
                "Greetings",
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleHosting", package: "ModuleLifecycle"),
                .product(name: "LifecycleRouting", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .testTarget(
            name: "ModularServerTests",
            dependencies: [
                "ModularServer",
                "Accounts",
                "Greetings",
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleMessaging", package: "ModuleLifecycle"),
                .product(name: "LifecycleTesting", package: "ModuleLifecycle"),
            ]
        ),
    ]
)

// Swift 6 language mode, and `any` spelled out for every existential, in every target.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
