// swift-tools-version:6.2
import PackageDescription

// The benchmark package for ModuleLifecycle. It lives in its own package so the root package keeps zero
// dependencies: only this package depends on swift-service-lifecycle, the system it is compared with.
//
//     swift run -c release --package-path Benchmarks lifecycle-bench            # the full table
//     swift run -c release --package-path Benchmarks lifecycle-bench --quick    # CI's smoke check
//
// The default trait `GeneratedModules` adds 10,000 generated non-generic module types and 1,000 generated
// providers of ten services each. They cost minutes of release compile time, so CI builds with
// `--disable-default-traits` and skips those rows.
//
// The default trait `HummingbirdComparison` adds Hummingbird 2, whose router trie the routing rows compare
// `RouteTrie` with. Hummingbird and SwiftNIO take minutes to build, so CI's quick build leaves it out too,
// and the `RouteTrie` rows run alone. Build it without the generated types with
// `--traits HummingbirdComparison`.
//
// The default trait `Observability` adds the integration package's `LifecycleObservability` (by path), with
// swift-distributed-tracing's in-memory tracer and swift-prometheus, for the rows that measure what a host's
// instruments cost (Docs/Performance.md, "Instruments"). CI's quick build leaves it out as well.
let package = Package(
    name: "ModuleLifecycleBenchmarks",
    // The root package's minimums (`Synchronization.Mutex`); Linux has none.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "lifecycle-bench", targets: ["lifecycle-bench"]),
        .executable(name: "scanner-bench", targets: ["scanner-bench"]),
    ],
    traits: [
        .trait(
            name: "GeneratedModules",
            description:
                "10,000 generated non-generic module types and 1,000 providers of 10 services, for the build rows (slow to compile)"
        ),
        .trait(
            name: "HummingbirdComparison",
            description: "Hummingbird 2, whose router trie the route matching rows are compared with (slow to compile)"
        ),
        .trait(
            name: "Observability",
            description: "LifecycleObservability's tracing and metrics instruments, for the instrument overhead rows"
        ),
        .default(enabledTraits: ["GeneratedModules", "HummingbirdComparison", "Observability"]),
    ],
    dependencies: [
        // The package under test, by path. The explicit name keeps the build independent of the name of
        // the directory a clone lives in.
        .package(name: "ModuleLifecycle", path: ".."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        // Only with the trait `HummingbirdComparison`; without its own default traits (swift-configuration,
        // full Foundation), which the trie does not need.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0", traits: []),
        // Only with the trait `Observability`: the instruments, a tracer that records and a metrics backend.
        .package(name: "ModuleLifecycleServiceLifecycle", path: "../Integrations/ServiceLifecycle"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    ],
    targets: [
        // Counts heap allocations by interposing malloc and friends (glibc only).
        .target(name: "CAllocationCounter"),

        // Thousands of distinct module types from type-level binary numbers, plus the hand-written
        // baselines' participants. Cheap to compile.
        .target(
            name: "SyntheticModules",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "LifecycleMessaging", package: "ModuleLifecycle"),
                .product(name: "LifecycleWork", package: "ModuleLifecycle"),
            ]
        ),

        // 10,000 generated non-generic module types, written at build time by the plugin below.
        .executableTarget(name: "synthetic-module-generator"),
        .plugin(
            name: "GenerateSyntheticModules",
            capability: .buildTool(),
            dependencies: [.target(name: "synthetic-module-generator")]
        ),
        .target(
            name: "GeneratedModules",
            dependencies: [
                .target(name: "SyntheticModules"),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
            ],
            plugins: [.plugin(name: "GenerateSyntheticModules")]
        ),
        // 1,000 generated non-generic service providers of ten services each (10,000 service protocols).
        .target(
            name: "GeneratedServices",
            dependencies: [
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
            ],
            plugins: [.plugin(name: "GenerateSyntheticModules")]
        ),

        // The module scanner's time per KB of source, at sizes from 64 KB to 4 MB (Docs/Discovery.md).
        .executableTarget(
            name: "scanner-bench",
            dependencies: [.product(name: "ModuleScanner", package: "ModuleLifecycle")]
        ),

        .executableTarget(
            name: "lifecycle-bench",
            dependencies: [
                .target(name: "CAllocationCounter"),
                .target(name: "SyntheticModules"),
                .target(name: "GeneratedModules", condition: .when(traits: ["GeneratedModules"])),
                .target(name: "GeneratedServices", condition: .when(traits: ["GeneratedModules"])),
                .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                .product(name: "LifecycleProxy", package: "ModuleLifecycle"),
                .product(name: "LifecycleServices", package: "ModuleLifecycle"),
                .product(name: "LifecycleMessaging", package: "ModuleLifecycle"),
                .product(name: "LifecycleRouting", package: "ModuleLifecycle"),
                .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
                .product(name: "LifecycleWork", package: "ModuleLifecycle"),
                .product(
                    name: "Hummingbird",
                    package: "hummingbird",
                    condition: .when(traits: ["HummingbirdComparison"])
                ),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(
                    name: "LifecycleObservability",
                    package: "ModuleLifecycleServiceLifecycle",
                    condition: .when(traits: ["Observability"])
                ),
                .product(
                    name: "InMemoryTracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["Observability"])
                ),
                .product(
                    name: "Tracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["Observability"])
                ),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Observability"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Observability"])),
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
for target in package.targets where target.type != .plugin && target.name != "CAllocationCounter" {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
