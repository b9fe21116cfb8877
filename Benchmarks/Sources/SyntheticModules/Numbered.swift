#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import LifecycleCore

/// Synthetic module number `Number.value`: it implements every lifecycle hook, the Bool events, the custom
/// ``Ping`` (synchronous handler) and ``AsyncPing`` (`async` handler) events and the baselines' ``SyncHooks``.
///
/// Every hook does the same work, ``HookTally/tick()``; Bool hooks return the module's vote. Its priority
/// and dependencies follow ``SyntheticGraph``; dependencies are other `Numbered` modules.
///
/// All `Numbered` types share one implementation of each hook, so an indirect call through them always
/// lands on the same code, which branch predictors handle best. `GeneratedModules` has the other case:
/// distinct code per type.
public struct Numbered<Number: TypeNumber>: LifecycleModule, DependentModule, WillFinishLaunching, SetupStage,
    InitializeStage, WarmUpStage, DidFinishLaunching, DidBecomeActive, WillEnterForeground, WillResignActive,
    DidEnterBackground, WillTerminate, OpenURL, CustomEventHandling, SyncHooks
{
    public static var priority: ModulePriority { SyntheticGraph.priority(of: Number.value) }

    public static var dependencies: [any LifecycleModule.Type] {
        SyntheticGraph.dependencies(of: Number.value).map { SyntheticCatalog.numbered[$0] }
    }

    let vote: Bool

    public init(context: LifecycleContext) {
        vote = SyntheticGraph.vote(of: Number.value)
    }

    public func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        HookTally.tick()
        return vote
    }

    public func setUp(_ context: LifecycleContext) { HookTally.tick() }

    public func initialize(_ context: LifecycleContext) { HookTally.tick() }

    public func warmUp(_ context: LifecycleContext) { HookTally.tick() }

    public func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        HookTally.tick()
        return vote
    }

    public func didBecomeActive(_ context: LifecycleContext) { HookTally.tick() }

    public func willEnterForeground(_ context: LifecycleContext) { HookTally.tick() }

    public func willResignActive(_ context: LifecycleContext) { HookTally.tick() }

    public func didEnterBackground(_ context: LifecycleContext) { HookTally.tick() }

    public func willTerminate(_ context: LifecycleContext) { HookTally.tick() }

    public func open(_ url: URL, context: LifecycleContext) -> Bool {
        HookTally.tick()
        return vote
    }

    public static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ping.self) { module, _, _ in module.finishLaunchingNow() }
        handlers.on(AsyncPing.self) { module, _, _ async in module.finishLaunchingNow() }
    }

    public func becomeActiveNow() { HookTally.tick() }

    public func finishLaunchingNow() -> Bool {
        HookTally.tick()
        return vote
    }
}

/// Synthetic module number `Number.value` that adopts the deprecated `Sync…` protocol of every event that
/// has one (warm-up stays asynchronous: it has none), in the extension below. Otherwise the twin of
/// ``Numbered``: same hooks, same work, same priorities and dependency graph, over `SyncNumbered` types.
public struct SyncNumbered<Number: TypeNumber>: LifecycleModule, DependentModule, WarmUpStage {
    public static var priority: ModulePriority { SyntheticGraph.priority(of: Number.value) }

    public static var dependencies: [any LifecycleModule.Type] {
        SyntheticGraph.dependencies(of: Number.value).map { SyntheticCatalog.syncNumbered[$0] }
    }

    let vote: Bool

    public init(context: LifecycleContext) {
        vote = SyntheticGraph.vote(of: Number.value)
    }

    public func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        HookTally.tick()
        return vote
    }

    public func setUp(_ context: LifecycleContext) { HookTally.tick() }

    public func initialize(_ context: LifecycleContext) { HookTally.tick() }

    public func warmUp(_ context: LifecycleContext) { HookTally.tick() }

    public func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        HookTally.tick()
        return vote
    }

    public func didBecomeActive(_ context: LifecycleContext) { HookTally.tick() }

    public func willEnterForeground(_ context: LifecycleContext) { HookTally.tick() }

    public func willResignActive(_ context: LifecycleContext) { HookTally.tick() }

    public func didEnterBackground(_ context: LifecycleContext) { HookTally.tick() }

    public func willTerminate(_ context: LifecycleContext) { HookTally.tick() }

    public func open(_ url: URL, context: LifecycleContext) -> Bool {
        HookTally.tick()
        return vote
    }
}

// The deprecated `Sync…` protocols, measured on purpose against the synchronous functions that replace them:
// adopted in a deprecated extension, which keeps the deprecation out of this package's warnings.
@available(*, deprecated, message: "measures the deprecated Sync… protocols")
extension SyncNumbered: SyncWillFinishLaunching, SyncSetupStage, SyncInitializeStage, SyncDidFinishLaunching,
    SyncDidBecomeActive, SyncWillEnterForeground, SyncWillResignActive, SyncDidEnterBackground, SyncWillTerminate,
    SyncOpenURL
{}

/// Synthetic module number `Number.value` with the generated modules' shape: one hook,
/// `didBecomeActive`. The generic twin of `GeneratedModules.Module00042` and the like, for comparing the
/// cost of building a proxy from generic and from non-generic types of the same shape.
public struct LeanNumbered<Number: TypeNumber>: LifecycleModule, DependentModule, DidBecomeActive {
    public static var priority: ModulePriority { SyntheticGraph.priority(of: Number.value) }

    public static var dependencies: [any LifecycleModule.Type] {
        SyntheticGraph.dependencies(of: Number.value).map { SyntheticCatalog.lean[$0] }
    }

    public init(context: LifecycleContext) {}

    public func didBecomeActive(_ context: LifecycleContext) { HookTally.tick() }
}

/// The synthetic module types, by number, built once.
public enum SyntheticCatalog {
    /// `Numbered` module types 0 ..< ``SyntheticGraph/maximumCount``.
    public static let numbered: [any LifecycleModule.Type] = (0..<SyntheticGraph.maximumCount).map {
        numberedType(typeNumber($0))
    }

    /// `SyncNumbered` module types 0 ..< ``SyntheticGraph/maximumCount``.
    public static let syncNumbered: [any LifecycleModule.Type] = (0..<SyntheticGraph.maximumCount).map {
        syncNumberedType(typeNumber($0))
    }

    /// `LeanNumbered` module types 0 ..< ``SyntheticGraph/maximumCount``.
    public static let lean: [any LifecycleModule.Type] = (0..<SyntheticGraph.maximumCount).map {
        leanType(typeNumber($0))
    }

    /// The `LeanNumbered` types with their capability tables, as ModuleDiscoveryPlugin writes them for
    /// non-generic types (each closure here captures its type's generic context).
    public static let leanDeclared: [DeclaredModule] = (0..<SyntheticGraph.maximumCount).map {
        leanDeclaration(typeNumber($0))
    }

    /// The `Numbered` types with the capability tables ModuleDiscoveryPlugin writes for them: each of their
    /// synchronous hooks registered with a closure that calls it, no `Sync…` protocol.
    public static let numberedDeclared: [DeclaredModule] = (0..<SyntheticGraph.maximumCount).map {
        numberedDeclaration(typeNumber($0))
    }

    /// The `SyncNumbered` types with the capability tables the plugin wrote before synchronous hooks were read
    /// from the source: each hook through its deprecated `Sync…` protocol (`hooks.didBecomeActive(sync: module)`).
    public static let syncNumberedDeclared: [DeclaredModule] = (0..<SyntheticGraph.maximumCount).map {
        twinDeclaration(Twins.self, typeNumber($0))
    }

    private static func numberedDeclaration<Number: TypeNumber>(_: Number.Type) -> DeclaredModule {
        DeclaredModule(Numbered<Number>.self, dependent: Numbered<Number>.self) { module, hooks in
            let module = module as! Numbered<Number>
            hooks.willFinishLaunching(module, synchronously: { module.willFinishLaunching($0) })
            hooks.setup(module, synchronously: { module.setUp($0) })
            hooks.initialize(module, synchronously: { module.initialize($0) })
            hooks.warmUp(module)
            hooks.didFinishLaunching(module, synchronously: { module.didFinishLaunching($0) })
            hooks.willEnterForeground(module, synchronously: { module.willEnterForeground($0) })
            hooks.didBecomeActive(module, synchronously: { module.didBecomeActive($0) })
            hooks.willResignActive(module, synchronously: { module.willResignActive($0) })
            hooks.didEnterBackground(module, synchronously: { module.didEnterBackground($0) })
            hooks.willTerminate(module, synchronously: { module.willTerminate($0) })
            hooks.openURL(module, synchronously: { module.open($0, context: $1) })
            hooks.customEvents(module)
        }
    }

    private static func twinDeclaration<Builder: TwinDeclarations, Number: TypeNumber>(
        _: Builder.Type,
        _: Number.Type
    ) -> DeclaredModule {
        Builder.declaration(Number.self)
    }

    private static func leanDeclaration<Number: TypeNumber>(_: Number.Type) -> DeclaredModule {
        DeclaredModule(LeanNumbered<Number>.self, dependent: LeanNumbered<Number>.self) { module, hooks in
            let module = module as! LeanNumbered<Number>
            hooks.didBecomeActive(module, synchronously: { module.didBecomeActive($0) })
        }
    }

    private static func numberedType<Number: TypeNumber>(_: Number.Type) -> any LifecycleModule.Type {
        Numbered<Number>.self
    }

    private static func syncNumberedType<Number: TypeNumber>(_: Number.Type) -> any LifecycleModule.Type {
        SyncNumbered<Number>.self
    }

    private static func leanType<Number: TypeNumber>(_: Number.Type) -> any LifecycleModule.Type {
        LeanNumbered<Number>.self
    }
}

/// Builds the `SyncNumbered` capability tables through the deprecated `ModuleHooks.<event>(sync:)`. The
/// requirement is met in a deprecated extension and called through the protocol, so measuring the deprecated
/// path on purpose adds no warning to this package's build.
protocol TwinDeclarations {
    static func declaration<Number: TypeNumber>(_: Number.Type) -> DeclaredModule
}

/// The one ``TwinDeclarations``.
enum Twins: TwinDeclarations {}

@available(*, deprecated, message: "measures the deprecated ModuleHooks.<event>(sync:)")
extension Twins {
    static func declaration<Number: TypeNumber>(_: Number.Type) -> DeclaredModule {
        DeclaredModule(SyncNumbered<Number>.self, dependent: SyncNumbered<Number>.self) { module, hooks in
            let module = module as! SyncNumbered<Number>
            hooks.willFinishLaunching(sync: module)
            hooks.setup(sync: module)
            hooks.initialize(sync: module)
            hooks.warmUp(module)
            hooks.didFinishLaunching(sync: module)
            hooks.willEnterForeground(sync: module)
            hooks.didBecomeActive(sync: module)
            hooks.willResignActive(sync: module)
            hooks.didEnterBackground(sync: module)
            hooks.willTerminate(sync: module)
            hooks.openURL(sync: module)
        }
    }
}
