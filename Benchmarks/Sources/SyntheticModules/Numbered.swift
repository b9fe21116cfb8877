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

/// Synthetic module number `Number.value` that adopts the synchronous form of every event that has one
/// (warm-up stays asynchronous: it has none). Otherwise the twin of ``Numbered``: same hooks, same work,
/// same priorities and dependency graph, over `SyncNumbered` types.
public struct SyncNumbered<Number: TypeNumber>: LifecycleModule, DependentModule, SyncWillFinishLaunching,
    SyncSetupStage, SyncInitializeStage, WarmUpStage, SyncDidFinishLaunching, SyncDidBecomeActive,
    SyncWillEnterForeground, SyncWillResignActive, SyncDidEnterBackground, SyncWillTerminate, SyncOpenURL
{
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

    private static func leanDeclaration<Number: TypeNumber>(_: Number.Type) -> DeclaredModule {
        DeclaredModule(LeanNumbered<Number>.self, dependent: LeanNumbered<Number>.self) { module, hooks in
            hooks.didBecomeActive(module as! LeanNumbered<Number>)
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
