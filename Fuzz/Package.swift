// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets for every parser that takes input from outside the program (Docs/Reliability.md,
// "Fuzzing"). It lives in its own package so the root package keeps zero dependencies and its build never
// sees the fuzzer's flags. Each fuzzer reaches the root's parsers through their public (or
// `@_spi(Validation)`) API, as a user would.
//
//     Scripts/test-fuzz.sh                      # from the repository root: build once, the CI slice
//     Scripts/test-fuzz.sh 600                  # ten minutes per fuzzer
//     swift build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xbuild-tools-swiftc -O
//     Fuzz/.build/release/RouterFuzzer -max_total_time=60 <a copy of Fuzz/Corpus/RouterFuzzer>
//
// `-Xbuild-tools-swiftc -O` keeps the sanitizer flags away from the root's build tool (the discovery plugin's
// generator), which no fuzzer uses but SwiftPM builds for the plugins; with the flags it fails to link.
let package = Package(
    name: "ModuleLifecycleFuzz",
    // The root package's minimums (`Synchronization.Mutex`); Linux has none.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        // The root package, by path. The explicit name keeps the build independent of the name of the
        // directory a clone lives in.
        .package(name: "ModuleLifecycle", path: "..")
    ],
    targets: [
        // libFuzzer's driver, called from each fuzzer's `<Target>_main` (FuzzerEntry.h says why).
        .target(name: "FuzzerEntry"),
        fuzzer("RoutePatternFuzzer", ["LifecycleCore", "LifecycleProxy", "LifecycleRouting"]),
        fuzzer("RouterFuzzer", ["LifecycleCore", "LifecycleProxy", "LifecycleRouting"]),
        fuzzer("LaunchOptionsFuzzer", ["LifecycleCore"]),
        fuzzer("SignalMapFuzzer", ["LifecycleHosting"]),
        fuzzer("ModuleSwitchesFuzzer", ["LifecycleCore"]),
        fuzzer("DiscoverySummaryFuzzer", ["ModuleScanner"]),
        fuzzer("ScannerFuzzer", ["ModuleScanner"]),
    ]
)

/// A fuzzer: one file that defines `LLVMFuzzerTestOneInput` over the root's `products`. `-parse-as-library`
/// keeps the compiler from emitting a `main` of its own, so libFuzzer's driver runs.
func fuzzer(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.target(name: "FuzzerEntry")]
            + products.map { .product(name: $0, package: "ModuleLifecycle") },
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

// Language settings, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
// Swift settings, so not for the C target.
for target in package.targets where target.name != "FuzzerEntry" {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
