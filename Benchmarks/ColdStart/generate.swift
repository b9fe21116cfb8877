// Writes a package of many targets full of non-generic module types, discovered by ModuleDiscoveryPlugin,
// and executables that time `ApplicationHost(manifest: .discovered)` in their own, fresh process: what a
// program with that many modules pays at startup, before its first event.
//
//     swift Benchmarks/ColdStart/generate.swift [--file-per-module] <output-dir> <root-package-path> \
//         <modules-per-target> <targets>...
//
// Each target's modules are in one file, or with `--file-per-module` one file each (as most code is
// written; Benchmarks/DiscoveryScale/run.sh uses it to time the plugin). Target k depends on target k - 1.
// For each count of targets given, executable `cold-start-<N>` links the first that many (N modules in all). One package, one build, for every N. Benchmarks/ColdStart/run.sh
// calls it; nothing here is committed output. Toolchain only.
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let filePerModule = arguments.first == "--file-per-module"
if filePerModule { arguments.removeFirst() }
let sizes = arguments.dropFirst(3).compactMap { Int($0) }.filter { $0 > 0 }
guard arguments.count >= 4, let perTarget = Int(arguments[2]), perTarget > 0, sizes.count == arguments.count - 3
else {
    FileHandle.standardError.write(
        Data(
            ("usage: generate.swift [--file-per-module] <output-dir> <root-package-path> <modules-per-target> "
                + "<targets>...\n").utf8
        )
    )
    exit(2)
}
let targets = sizes.max()!
let output = URL(fileURLWithPath: arguments[0])
let root = arguments[1]
let fileManager = FileManager.default

func write(_ text: String, to path: String) throws {
    let url = output.appendingPathComponent(path)
    try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    // Written only when it changed, so a rerun rebuilds nothing.
    if let old = try? String(contentsOf: url, encoding: .utf8), old == text { return }
    try text.write(to: url, atomically: true, encoding: .utf8)
}

/// The capabilities of module `index`: a realistic spread of one to three hooks, sync and async. A synchronous
/// hook is an ordinary function: the plugin registers it to be called without an `await`.
func hooks(_ index: Int) -> (protocols: [String], body: [String]) {
    switch index % 4 {
    case 0:
        return (
            ["DidBecomeActive", "WillTerminate"],
            [
                "    public func didBecomeActive(_ context: LifecycleContext) async throws {}",
                "    public func willTerminate(_ context: LifecycleContext) async throws {}",
            ]
        )
    case 1:
        return (
            ["DidBecomeActive", "WillTerminate", "WarmUpStage"],
            [
                "    public func didBecomeActive(_ context: LifecycleContext) throws {}",
                "    public func willTerminate(_ context: LifecycleContext) throws {}",
                "    public func warmUp(_ context: LifecycleContext) async throws {}",
            ]
        )
    case 2:
        return (
            ["WillFinishLaunching", "DidEnterBackground"],
            [
                "    public func willFinishLaunching(_ context: LifecycleContext) throws -> Bool { true }",
                "    public func didEnterBackground(_ context: LifecycleContext) throws {}",
            ]
        )
    default:
        return (
            ["DidReceiveMemoryWarning"],
            ["    public func didReceiveMemoryWarning(_ context: LifecycleContext) throws {}"]
        )
    }
}

var targetDeclarations: [String] = []
for target in 0..<targets {
    let name = "Feature\(target)"
    var imports = ["public import LifecycleCore"]
    if target > 0 { imports.append("import Feature\(target - 1)") }
    var lines = imports
    for index in 0..<perTarget {
        // One dependency in the previous target, and (but for the first) one in this target: ~1.9 each.
        var dependencies: [String] = []
        if target > 0 { dependencies.append("Module\(target - 1)_\(index).self") }
        if index > 0 { dependencies.append("Module\(target)_\(index - 1).self") }
        let (protocols, body) = hooks(index)
        let inherits = (["LifecycleModule"] + (dependencies.isEmpty ? [] : ["DependentModule"]) + protocols)
            .joined(separator: ", ")
        lines.append("")
        lines.append("public struct Module\(target)_\(index): \(inherits) {")
        lines.append("    public static let priority: ModulePriority = \(index % 7 * 10)")
        if !dependencies.isEmpty {
            lines.append(
                "    public static let dependencies: [any LifecycleModule.Type] = [\(dependencies.joined(separator: ", "))]"
            )
        }
        lines.append("    public init(context: LifecycleContext) {}")
        lines += body
        lines.append("}")
        if filePerModule {
            try write(lines.joined(separator: "\n") + "\n", to: "Sources/\(name)/Module\(target)_\(index).swift")
            lines = imports
        }
    }
    if !filePerModule { try write(lines.joined(separator: "\n") + "\n", to: "Sources/\(name)/Modules.swift") }
    let dependency = target > 0 ? "\"Feature\(target - 1)\", " : ""
    targetDeclarations.append(
        """
                .target(
                    name: "\(name)",
                    dependencies: [\(dependency).product(name: "LifecycleCore", package: "ModuleLifecycle")],
                    plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
                ),
        """
    )
}

let executables = sizes.map { count in
    let features = (0..<count).map { "\"Feature\($0)\"" }.joined(separator: ", ")
    return """
                .executableTarget(
                    name: "cold-start-\(count * perTarget)",
                    dependencies: [\(features), .product(name: "LifecycleCore", package: "ModuleLifecycle"),
                        .product(name: "LifecycleProxy", package: "ModuleLifecycle")],
                    plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
                ),
        """
}
try write(
    """
    // swift-tools-version:6.2
    // Generated by Benchmarks/ColdStart/generate.swift. Do not edit.
    import PackageDescription

    let package = Package(
        name: "ColdStart",
        platforms: [.macOS(.v15)],
        dependencies: [.package(name: "ModuleLifecycle", path: "\(root)")],
        targets: [
    \(targetDeclarations.joined(separator: "\n"))
    \(executables.joined(separator: "\n"))
        ]
    )

    """,
    to: "Package.swift"
)

for count in sizes {
    try write(
        """
        // Generated by Benchmarks/ColdStart/generate.swift. Do not edit.
        // Times what a program pays before its first event, once, in this fresh process: building the host over
        // every discovered module (the manifest's first use included). Then launch and terminate, for scale.
        import LifecycleCore
        import LifecycleProxy

        let clock = ContinuousClock()
        let start = clock.now
        let host = try ApplicationHost(manifest: .discovered)
        let built = start.duration(to: clock.now)
        let launchStart = clock.now
        try await host.launch()
        try await host.terminate()
        let lifecycle = launchStart.duration(to: clock.now)
        func nanoseconds(_ duration: Duration) -> Int64 {
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        }
        print("modules=\\(host.participants.count) build_ns=\\(nanoseconds(built)) lifecycle_ns=\\(nanoseconds(lifecycle))")

        """,
        to: "Sources/cold-start-\(count * perTarget)/main.swift"
    )
}
