// swift-tools-version:6.2
// An adopter's package, used by Scripts/test-discovery-fixture.sh: two feature libraries and a host,
// all applying ModuleDiscoveryPlugin. Nobody lists a module by hand. The script places a link named
// `ModuleLifecycle` to this repository next to a copy of this folder.
import PackageDescription

let package = Package(
    name: "DiscoveryFixture",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../ModuleLifecycle")],
    targets: [
        .target(
            name: "FeatureA",
            dependencies: [.product(name: "LifecycleCore", package: "ModuleLifecycle")],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .target(
            name: "FeatureB",
            dependencies: ["FeatureA", .product(name: "LifecycleCore", package: "ModuleLifecycle")],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .executableTarget(
            name: "FixtureHost",
            dependencies: [
                "FeatureB",
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
        .testTarget(
            name: "FixtureTests",
            dependencies: [
                "FeatureA", "FeatureB",
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleTesting", package: "ModuleLifecycle"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
        ),
    ]
)
