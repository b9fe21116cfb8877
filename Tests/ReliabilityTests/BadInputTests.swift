import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

// MARK: - As many distinct module types as a test needs

/// A natural number as a type, least significant bit outermost: `Zero`, `One<Zero>` = 1, `Nought<One<Zero>>` = 2.
/// Every number has exactly one such type, so `Numbered<N>` gives as many distinct module types as needed.
protocol TypeNumber {
    static var value: Int { get }
}

enum Zero: TypeNumber {
    static var value: Int { 0 }
}

enum Nought<Rest: TypeNumber>: TypeNumber {
    static var value: Int { Rest.value * 2 }
}

enum One<Rest: TypeNumber>: TypeNumber {
    static var value: Int { Rest.value * 2 + 1 }
}

/// The shape of the synthetic graph: each module's dependencies, by number.
final class SyntheticGraph: Sendable {
    let dependencies: [[Int]]
    let priorities: [Int]

    init(dependencies: [[Int]], priorities: [Int]) {
        self.dependencies = dependencies
        self.priorities = priorities
    }

    /// The graph the next synthetic manifest uses. Tests that use it are serialized.
    static let current = Locked(SyntheticGraph(dependencies: [], priorities: []))
}

/// Module number `N.value`, whose priority and dependencies come from ``SyntheticGraph/current``.
struct Numbered<N: TypeNumber>: LifecycleModule, DependentModule, DidBecomeActive {
    static var priority: ModulePriority {
        let graph = SyntheticGraph.current.withLock { $0 }
        return ModulePriority(rawValue: graph.priorities.indices.contains(N.value) ? graph.priorities[N.value] : 0)
    }
    static var dependencies: [any LifecycleModule.Type] {
        let graph = SyntheticGraph.current.withLock { $0 }
        guard graph.dependencies.indices.contains(N.value) else { return [] }
        return graph.dependencies[N.value].map(numberedModule)
    }
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) {}
}

/// The type for `n`.
func typeNumber(_ n: Int) -> any TypeNumber.Type {
    func nought<T: TypeNumber>(_: T.Type) -> any TypeNumber.Type { Nought<T>.self }
    func one<T: TypeNumber>(_: T.Type) -> any TypeNumber.Type { One<T>.self }
    guard n > 0 else { return Zero.self }
    let rest = typeNumber(n / 2)
    return n % 2 == 0 ? nought(rest) : one(rest)
}

/// Module type number `n`.
func numberedModule(_ n: Int) -> any LifecycleModule.Type {
    func module<T: TypeNumber>(_: T.Type) -> any LifecycleModule.Type { Numbered<T>.self }
    return module(typeNumber(n))
}

// MARK: - Other bad modules

struct Overflowing: LifecycleModule {
    static let priority = ModulePriority(rawValue: .max)
    init(context: LifecycleContext) {}
}

struct Underflowing: LifecycleModule {
    static let priority = ModulePriority(rawValue: .min)
    init(context: LifecycleContext) {}
}

struct Plain: LifecycleModule, DidBecomeActive {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) {}
}

struct Loop: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [Loop.self]
    init(context: LifecycleContext) {}
}

/// Reads launch options with odd keys and values.
struct OddOptionsReader: LifecycleModule, DidFinishLaunching {
    static let priority: ModulePriority = .normal
    let profile: String?
    let emptyFlag: String?
    init(context: LifecycleContext) {
        profile = context.launchOptions.profile
        emptyFlag = context.launchOptions.argument("--")
    }
    func didFinishLaunching(_ context: LifecycleContext) -> Bool { true }
}

@Suite("Bad input", .serialized, .timeLimit(.minutes(2)))
struct BadInputTests {
    /// Builds a manifest of `count` synthetic modules shaped by `dependencies` and `priorities`.
    func synthetic(
        _ count: Int,
        dependencies: (Int) -> [Int] = { _ in [] },
        priority: (Int) -> Int = { _ in 5_000 }
    ) -> ModuleManifest {
        SyntheticGraph.current.withLock {
            $0 = SyntheticGraph(dependencies: (0..<count).map(dependencies), priorities: (0..<count).map(priority))
        }
        return ModuleManifest(name: "Synthetic", (0..<count).map(numberedModule))
    }

    @Test("An empty manifest is a typed error, and so is a host built from it")
    func emptyManifest() {
        let error = #expect(throws: ManifestError.self) {
            try ApplicationHost(manifest: ModuleManifest(name: "Nothing", []))
        }
        #expect(error?.code == .emptyManifest)
        #expect(error?.description.contains("Manifest `Nothing` lists no module") == true)
    }

    @Test("Duplicate types, even through two manifests, are a typed error naming both sources")
    func duplicates() {
        let first = ModuleManifest(name: "First", [Plain.self])
        let second = ModuleManifest(name: "Second", [Plain.self, Loop.self])
        let error = #expect(throws: ManifestError.self) {
            try ApplicationHost(manifest: ModuleManifest(combining: [first, second]))
        }
        #expect(error?.code == .duplicateModule)
        #expect(error?.modules == [Plain.moduleName])
        #expect(error?.description.contains("listed by `First` and `Second`") == true)
    }

    @Test("A manifest without a name of its own is not called `manifest` in errors")
    func unnamedManifest() {
        let empty = #expect(throws: ManifestError.self) { try ApplicationHost(manifest: ModuleManifest([])) }
        #expect(empty?.code == .emptyManifest)
        #expect(empty?.description.hasPrefix("The manifest lists no module") == true)
        let duplicate = #expect(throws: ManifestError.self) {
            try ApplicationHost(manifest: ModuleManifest([Plain.self, Plain.self]))
        }
        #expect(duplicate?.code == .duplicateModule)
        #expect(
            duplicate?.description.hasPrefix(
                "The manifest lists these module types more than once: `\(Plain.moduleName)`."
            )
                == true
        )
        for error in [empty, duplicate] { #expect(error?.description.contains("`manifest`") == false) }
    }

    @Test("Huge priorities are rejected, not overflowed; arithmetic on priorities saturates")
    func hugePriorities() {
        let error = #expect(throws: ManifestError.self) {
            try ApplicationHost(manifest: ModuleManifest([Plain.self, Overflowing.self, Underflowing.self]))
        }
        #expect(error?.code == .priorityOutOfRange)
        #expect(error?.modules == [Overflowing.moduleName, Underflowing.moduleName])
        #expect(error?.description.contains("\(Int.max)") == true)
        #expect((ModulePriority(rawValue: .max) + 1).rawValue == .max)
        #expect((ModulePriority(rawValue: .min) - 1).rawValue == .min)
    }

    @Test("Cycles of length 1, 2 and 100 are typed errors whose message walks the whole cycle", arguments: [1, 2, 100])
    func cycles(length: Int) throws {
        let manifest: ModuleManifest
        if length == 1 {
            manifest = ModuleManifest([Plain.self, Loop.self])
        } else {
            // Module i depends on i + 1, and the last on the first; a few bystanders depend on the ring.
            manifest = synthetic(length + 3) { index in
                index < length ? [(index + 1) % length] : [0]
            }
        }
        let error = try #require(throws: ManifestError.self) { try ApplicationHost(manifest: manifest) }
        if length == 1 {
            #expect(error.code == .selfDependency)
            #expect(error.modules == [Loop.moduleName])
            return
        }
        #expect(error.code == .dependencyCycle)
        // The path starts and ends at the same module and visits each module of the ring once.
        #expect(error.modules.count == length + 1)
        #expect(error.modules.first == error.modules.last)
        #expect(Set(error.modules).count == length)
        #expect(error.description.hasPrefix("Dependency cycle: "))
        #expect(error.description.contains("Remove one dependency of the cycle"))
    }

    @Test("10,000 modules with two dependencies each build, launch in dependency order, and terminate")
    func tenThousandModules() async throws {
        let count = 10_000
        // Each module depends on two earlier ones; priorities vary so the heap does real work.
        let manifest = synthetic(
            count,
            dependencies: { index in index < 2 ? [] : [index / 2, index - 1] },
            priority: { index in (index * 7_919) % 100_000 }
        )
        let delivered = Locked(0)
        let start = ContinuousClock.now
        let host = try ApplicationHost(
            manifest: manifest,
            configuration: .init(
                hookBudget: nil,
                onDelivery: { _ in delivered.withLock { $0 += 1 } },
                journalCapacity: 0
            )
        )
        let built = ContinuousClock.now - start
        #expect(host.participants.count == count)
        // Dependencies first: every module comes after both of its dependencies.
        let names = manifest.entries.map(\.moduleName)
        var position: [String: Int] = [:]
        for (offset, participant) in host.participants.enumerated() { position[participant.name] = offset }
        for index in 2..<count {
            let mine = position[names[index]] ?? -1
            #expect(mine > position[names[index / 2]] ?? .max)
            #expect(mine > position[names[index - 1]] ?? .max)
        }
        try await host.launch()
        try await host.terminate()
        #expect(delivered.withLock { $0 } == count)  // didBecomeActive, the only hook, once each
        print("reliability: 10,000-module host built in \(built)")
    }

    @Test("Launch options with odd keys and values are carried verbatim")
    func oddLaunchOptions() async throws {
        let arguments = ["app", "--profile", "", "--", "--=", "-", "ünïcödé 🚀", String(repeating: "x", count: 10_000)]
        let environment = ["": "empty key", "LIFECYCLE_PROFILE": "ignored", "KEY WITH SPACES": "a=b=c", "NUL": "\u{0}"]
        let options = LaunchOptions(arguments: arguments, environment: environment)
        #expect(options.arguments == arguments)
        #expect(options.environment == environment)
        #expect(options.profile == "")  // --profile wins over the environment, even when empty
        #expect(options.argument("--") == "--=")
        #expect(options.argument("--missing") == nil)

        let host = try ApplicationHost(manifest: ModuleManifest([OddOptionsReader.self]), launchOptions: options)
        let result = try await host.launch()
        #expect(result.didFinishLaunching)
        #expect(host.context.launchOptions.arguments == arguments)
    }
}
