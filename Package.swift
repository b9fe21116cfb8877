// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "ModuleLifecycle",
    // `Synchronization.Mutex` needs these on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "LifecycleCore", targets: ["LifecycleCore"]),
        .library(name: "LifecycleProxy", targets: ["LifecycleProxy"]),
        .library(name: "LifecycleTesting", targets: ["LifecycleTesting"]),
        .library(name: "LifecycleHosting", targets: ["LifecycleHosting"]),
        .library(name: "LifecycleServices", targets: ["LifecycleServices"]),
        .library(name: "LifecycleMessaging", targets: ["LifecycleMessaging"]),
        .library(name: "LifecycleRouting", targets: ["LifecycleRouting"]),
        .library(name: "LifecycleScopes", targets: ["LifecycleScopes"]),
        .library(name: "LifecycleWork", targets: ["LifecycleWork"]),
        // The plugin's scanner, for the nested package `Validation/`, which checks it against swift-syntax.
        // Its `@_spi(Validation)` declarations are not API (README, "Stability").
        .library(name: "ModuleScanner", targets: ["ModuleScanner"]),
        .executable(name: "lifecycle-demo", targets: ["lifecycle-demo"]),
        .plugin(name: "ModuleDiscoveryPlugin", targets: ["ModuleDiscoveryPlugin"]),
        .plugin(name: "WriteModuleManifest", targets: ["WriteModuleManifest"]),
    ],
    targets: [
        .target(name: "LifecycleCore"),
        .target(
            name: "LifecycleProxy",
            dependencies: [.target(name: "LifecycleCore")]
        ),
        // Runs a host in a server or CLI process: signals mapped to lifecycle events, exit codes.
        .target(
            name: "LifecycleHosting",
            dependencies: [.target(name: "LifecycleCore")]
        ),
        .target(
            name: "LifecycleServices",
            dependencies: [
                .target(name: "LifecycleCore"), .target(name: "LifecycleProxy"), .target(name: "LifecycleScopes"),
            ]
        ),
        // Typed messages between modules: to one, to many, to all (Docs/Messages.md).
        .target(
            name: "LifecycleMessaging",
            dependencies: [.target(name: "LifecycleCore"), .target(name: "LifecycleProxy")]
        ),
        // Intents to the routes modules serve, through priority interceptors (Docs/Routing.md). The pattern
        // grammar is a target of its own, so the discovery plugin checks patterns with the same code.
        .target(name: "RoutePatternSyntax"),
        .target(
            name: "LifecycleRouting",
            dependencies: [
                .target(name: "LifecycleCore"), .target(name: "LifecycleProxy"), .target(name: "RoutePatternSyntax"),
            ]
        ),
        // Scoped lifecycles below the application's: requests, sessions, jobs, with global actions,
        // adoptions and behaviors (Docs/Scopes.md).
        .target(
            name: "LifecycleScopes",
            dependencies: [.target(name: "LifecycleCore")]
        ),

        // Work that modules own: long-running tasks tied to lifecycle states, supervised with restart
        // strategies, on the host's watchdog and clock (Docs/Work.md).
        .target(
            name: "LifecycleWork",
            dependencies: [.target(name: "LifecycleCore"), .target(name: "LifecycleProxy")]
        ),

        // The built-in events as one table: the scanner reads it, and LifecycleCore and LifecycleProxy compile Swift
        // generated from it (Scripts/generate-events.sh), so adding an event is one row (Docs/Events.md).
        .target(name: "LifecycleEventTable"),

        // Discovery: a toolchain-only scanner, the generator tool that runs it, and two plugins.
        .target(
            name: "ModuleScanner",
            dependencies: [.target(name: "RoutePatternSyntax"), .target(name: "LifecycleEventTable")]
        ),
        .executableTarget(
            name: "lifecycle-manifest-tool",
            dependencies: [.target(name: "ModuleScanner")]
        ),
        .plugin(
            name: "ModuleDiscoveryPlugin",
            capability: .buildTool(),
            dependencies: [.target(name: "lifecycle-manifest-tool")]
        ),
        .plugin(
            name: "WriteModuleManifest",
            capability: .command(
                intent: .custom(
                    verb: "write-module-manifest",
                    description: "Writes a target's module manifest into its sources, for review in code review"
                ),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated module manifest into the target")]
            ),
            dependencies: [.target(name: "lifecycle-manifest-tool")]
        ),

        // Test support for adopters: recording, assertions, whole-manifest launches, a virtual clock, and
        // the completeness check, backed by the runtime's conformance records.
        .target(name: "CLifecycleRuntime"),
        .target(
            name: "LifecycleTesting",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleScopes"),
                .target(name: "ModuleScanner"),
                .target(name: "CLifecycleRuntime"),
            ]
        ),

        .target(
            name: "DemoModules",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleHosting"),
                .target(name: "LifecycleServices"),
                .target(name: "LifecycleMessaging"),
                .target(name: "LifecycleRouting"),
                .target(name: "LifecycleScopes"),
                .target(name: "LifecycleWork"),
            ],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        .executableTarget(
            name: "lifecycle-demo",
            dependencies: [.target(name: "DemoModules")],
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        // The README's quick start, compiled and run by DocumentationTests.
        .executableTarget(
            name: "QuickStartExample",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleWork"),
            ],
            path: "Examples/QuickStart",
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        // Docs/Messages.md's top-level example: `main.swift` sends with `await` and reaches an `async` receiver.
        // DemoModulesTests runs it as a process.
        .executableTarget(
            name: "MessagesMainExample",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleMessaging"),
            ],
            path: "Examples/MessagesMain",
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        // Docs/Hosting.md's example: a server run by HostRunner. `swift run ServerExample`, then signal it.
        .executableTarget(
            name: "ServerExample",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleHosting"),
            ],
            path: "Examples/Server",
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        // Docs/Testing.md's example: an adopter's modules and the tests an adopter would write for them.
        .target(
            name: "TestingExample",
            dependencies: [.target(name: "LifecycleCore")],
            path: "Examples/TestingExample/Sources",
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        .testTarget(
            name: "TestingExampleTests",
            dependencies: [
                .target(name: "TestingExample"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
            ],
            path: "Examples/TestingExample/Tests"
        ),
        .target(name: "GreetingInterface", path: "Examples/ServicesExample/Interface"),
        .target(
            name: "GreetingProvider",
            dependencies: [
                .target(name: "GreetingInterface"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleServices"),
            ],
            path: "Examples/ServicesExample/Provider",
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        .testTarget(
            name: "ServicesExampleTests",
            dependencies: [
                .target(name: "GreetingInterface"),
                .target(name: "GreetingProvider"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleServices"),
            ],
            path: "Examples/ServicesExample/Tests",
            plugins: [.plugin(name: "ModuleDiscoveryPlugin")]
        ),
        .testTarget(
            name: "LifecycleCoreTests",
            dependencies: [.target(name: "LifecycleCore"), .target(name: "LifecycleTesting")]
        ),
        .testTarget(
            name: "LifecycleProxyTests",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
            ]
        ),
        .testTarget(
            name: "DemoModulesTests",
            dependencies: [
                .target(name: "DemoModules"),
                .target(name: "TestingExample"),
                .target(name: "LifecycleHosting"),
                .target(name: "LifecycleServices"),
                .target(name: "LifecycleMessaging"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
            ]
        ),
        .testTarget(
            name: "LifecycleHostingTests",
            dependencies: [
                .target(name: "LifecycleHosting"),
                .target(name: "LifecycleTesting"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
            ]
        ),
        .testTarget(
            name: "LifecycleServicesTests",
            dependencies: [
                .target(name: "LifecycleServices"),
                .target(name: "LifecycleScopes"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
            ]
        ),
        .testTarget(
            name: "LifecycleMessagingTests",
            dependencies: [
                .target(name: "LifecycleMessaging"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
            ]
        ),
        .testTarget(
            name: "LifecycleRoutingTests",
            dependencies: [
                .target(name: "LifecycleRouting"),
                .target(name: "LifecycleMessaging"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
            ]
        ),
        .testTarget(
            name: "LifecycleScopesTests",
            dependencies: [
                .target(name: "LifecycleScopes"),
                .target(name: "LifecycleServices"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
            ]
        ),
        .testTarget(
            name: "LifecycleWorkTests",
            dependencies: [
                .target(name: "LifecycleWork"),
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
                // HostRunner's exit codes for work that fails or is abandoned.
                .target(name: "LifecycleHosting"),
            ]
        ),
        .testTarget(
            name: "ModuleScannerTests",
            dependencies: [.target(name: "ModuleScanner")]
        ),
        // The event table against everything derived from it: the generated sources, the scanner, the docs.
        .testTarget(
            name: "LifecycleEventTableTests",
            dependencies: [
                .target(name: "LifecycleEventTable"),
                .target(name: "ModuleScanner"),
                .target(name: "LifecycleCore"),
            ]
        ),
        .testTarget(
            name: "LifecycleTestingTests",
            dependencies: [
                .target(name: "LifecycleTesting"),
                .target(name: "LifecycleCore"),
                .target(name: "ModuleScanner"),
            ]
        ),
        // Evidence that the host holds under load, faults and bad input (Docs/Reliability.md).
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                .target(name: "LifecycleCore"),
                .target(name: "LifecycleProxy"),
                .target(name: "LifecycleTesting"),
                // The whole-system model mixes messages, services, routing and scopes into host scenarios.
                .target(name: "LifecycleMessaging"),
                .target(name: "LifecycleServices"),
                .target(name: "LifecycleRouting"),
                .target(name: "LifecycleScopes"),
            ]
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                .target(name: "QuickStartExample"),
                .target(name: "LifecycleHosting"),
                .target(name: "LifecycleServices"),
                .target(name: "LifecycleMessaging"),
                .target(name: "LifecycleRouting"),
                .target(name: "LifecycleScopes"),
                .target(name: "LifecycleWork"),
                .target(name: "LifecycleTesting"),
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
for target in package.targets where target.type != .plugin && target.name != "CLifecycleRuntime" {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
