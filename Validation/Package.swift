// swift-tools-version:6.2
import PackageDescription

// The differential check of the discovery scanner (Docs/Discovery.md, "Checking the scanner against
// swift-syntax"): `scanner-diff` reads every Swift file of a corpus with `ModuleScanner` and with swift-syntax
// and compares the declarations each finds. It lives in its own package so the root package keeps zero
// dependencies.
//
//     Scripts/test-validation.sh                     # from the repository root: build once, the CI slice
//     Validation/make-corpus.sh all && swift run --package-path Validation -c release scanner-diff \
//         Validation/.corpus/all
let package = Package(
    name: "ModuleLifecycleValidation",
    // The root package's minimums (`Synchronization.Mutex`); Linux has none.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "scanner-diff", targets: ["scanner-diff"])
    ],
    dependencies: [
        // The root package, by path. The explicit name keeps the build independent of the name of the
        // directory a clone lives in.
        .package(name: "ModuleLifecycle", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "scanner-diff",
            dependencies: [
                .product(name: "ModuleScanner", package: "ModuleLifecycle"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
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
