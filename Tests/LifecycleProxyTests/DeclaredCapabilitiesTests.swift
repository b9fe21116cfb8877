import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// Modules with a spread of capabilities: synchronous and asynchronous hooks, dependencies, a budget, a
/// policy, a gate and custom events.
private struct DeclaredPool: LifecycleModule, WillFinishLaunching, WarmUpStage, WillTerminate, DependentModule,
    TimeBudgetedModule
{
    static let priority: ModulePriority = .high
    static let dependencies: [any LifecycleModule.Type] = [DeclaredConfig.self]
    static func budget(for event: LifecycleEvent) -> Duration? { event == .warmUp ? .seconds(5) : nil }
    init(context: LifecycleContext) {}
    func willFinishLaunching(_ context: LifecycleContext) throws -> Bool { true }
    func warmUp(_ context: LifecycleContext) async throws {}
    func willTerminate(_ context: LifecycleContext) async throws {}
}

private struct DeclaredConfig: LifecycleModule, FailurePolicyModule, DidBecomeActive, OpenURL, CustomEventHandling {
    static let priority: ModulePriority = .normal
    static let failurePolicy: ModuleFailurePolicy = .abort
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(DeclaredPing.self) { _, _, _ in true }
    }
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) throws {}
    func open(_ url: URL, context: LifecycleContext) async throws -> Bool { false }
}

// Adopted as code written before the synchronous functions did: the runtime then knows the hook is synchronous.
@available(*, deprecated, message: "adopts the deprecated SyncDidBecomeActive, as code written before did")
extension DeclaredConfig: SyncDidBecomeActive {}

private struct DeclaredAudit: LifecycleModule, EnvironmentGatedModule, WillTerminate {
    static let priority: ModulePriority = .low
    static func enablement(for options: LaunchOptions) -> ModuleEnablement { .onlyInProfiles(["prod"], options) }
    init(context: LifecycleContext) {}
    func willTerminate(_ context: LifecycleContext) throws {}
}

private struct DeclaredPing: CustomEvent {
    typealias Result = Bool
}

/// The declarations a generated manifest would carry for the three modules: each synchronous hook with a
/// closure that calls it, the one that adopts the deprecated `SyncDidBecomeActive` too.
private let declared = ModuleManifest(
    name: "Declared",
    declared: [
        DeclaredModule(DeclaredPool.self, dependent: DeclaredPool.self, budgeted: DeclaredPool.self) { module, hooks in
            let module = module as! DeclaredPool
            hooks.willFinishLaunching(module, synchronously: { try module.willFinishLaunching($0) })
            hooks.warmUp(module)
            hooks.willTerminate(module)
        },
        DeclaredModule(DeclaredConfig.self, failurePolicy: DeclaredConfig.self) { module, hooks in
            let module = module as! DeclaredConfig
            hooks.didBecomeActive(module, synchronously: { try module.didBecomeActive($0) })
            hooks.openURL(module)
            hooks.customEvents(module)
        },
        DeclaredModule(DeclaredAudit.self, gated: DeclaredAudit.self) { module, hooks in
            let module = module as! DeclaredAudit
            hooks.willTerminate(module, synchronously: { try module.willTerminate($0) })
        },
    ]
)

private let cast = ModuleManifest(name: "Cast", [DeclaredPool.self, DeclaredConfig.self, DeclaredAudit.self])

@Suite("Declared capabilities (the generated capability table)")
struct DeclaredCapabilitiesTests {
    @Test(
        "A declared manifest builds the same proxy as runtime casts: order, implementers, forms, statics",
        arguments: [nil, "prod"]
    )
    func sameAsCasting(profile: String?) throws {
        let options = LaunchOptions(arguments: profile.map { ["--profile", $0] } ?? [])
        let fromTable = try DelegateProxy(manifest: declared, launchOptions: options)
        let fromCasts = try DelegateProxy(manifest: cast, launchOptions: options)
        let names = { (proxy: DelegateProxy, event: LifecycleEvent) in proxy.plan(for: event).map(\.name) }
        #expect(fromTable.participants.map(\.name) == fromCasts.participants.map(\.name))
        for event in LifecycleEvent.builtinEvents {
            #expect(names(fromTable, event) == names(fromCasts, event), "\(event)")
        }
        #expect(fromTable.customEvents == fromCasts.customEvents)
        #expect(fromTable.disabledModules.map(\.name) == fromCasts.disabledModules.map(\.name))
        #expect(fromTable.plan(for: .willTerminate).count == (profile == nil ? 1 : 2))
        try fromTable.checkDeclarations()
    }

    @Test("A declared host delivers like a cast one: results, dependencies, budgets and policies")
    func hostBehaviour() async throws {
        let host = try ApplicationHost(
            manifest: declared,
            launchOptions: LaunchOptions(arguments: ["--profile", "prod"])
        )
        let launch = try await host.launch()
        #expect(launch == LaunchResult(willFinishLaunching: true, didFinishLaunching: true))
        #expect(try await host.send(DeclaredPing()) == true)
        #expect(try await host.open(URL(string: "app://x")!) == false)
        // The pool depends on the config, so it comes after it despite its higher priority.
        #expect(host.participants.map(\.name).firstIndex { $0.hasSuffix("DeclaredConfig") }! == 0)
        try await host.terminate()
        #expect(host.state == .terminated)
    }

    #if DEBUG
    @Test("Debug builds refuse a declaration that misses a capability, naming the module and the capability")
    func mismatchIsAnError() throws {
        let incomplete = ModuleManifest(
            name: "Incomplete",
            declared: [
                DeclaredModule(DeclaredConfig.self) { module, hooks in
                    hooks.didBecomeActive(module as! DeclaredConfig)  // async, but it adopted the sync form
                }
            ]
        )
        let error = #expect(throws: ManifestError.self) { try DelegateProxy(manifest: incomplete) }
        #expect(error?.code == .capabilityMismatch)
        #expect(error?.modules.count == 1)
        let text = error?.description ?? ""
        #expect(text.contains("DeclaredConfig"))
        #expect(text.contains("openURL (async)") && text.contains("FailurePolicyModule"))
        #expect(text.contains("didBecomeActive (sync)") && text.contains("Incomplete"))
    }
    #endif
}

@Suite("TypeTable")
struct TypeTableTests {
    @Test("Keeps the first value of a type, finds every type, and grows past its capacity")
    func insertFindGrow() {
        let types: [any LifecycleModule.Type] = [DeclaredPool.self, DeclaredConfig.self, DeclaredAudit.self]
        var table = TypeTable(capacity: 1)
        for (index, type) in types.enumerated() { #expect(table.insert(type, index) == index) }
        #expect(table.insert(DeclaredConfig.self, 99) == 1)
        #expect(types.map { table[$0] } == [0, 1, 2])
        #expect(TypeTable(capacity: 4)[DeclaredPool.self] == nil)
    }
}
