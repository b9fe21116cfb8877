import Foundation
import LifecycleCore
import Synchronization

// The real participants the model-based tests drive. Each type's conformances must agree with its row in
// `ModelPool.modules` (ReferenceModel.swift): the model reads the table, the host reads the conformances.

/// One hook call, as the hook itself saw it: which event, who, and the state the host reported.
struct ModelHookCall: Sendable, Equatable, CustomStringConvertible {
    let event: ModelEvent
    /// A participant index (`ModelSpec.index`).
    let participant: Int
    let state: ApplicationState

    var description: String { "\(event.rawValue) \(ModelPool.name(participant)) [\(state)]" }
}

/// Every hook call of one host, in the order the hooks ran. Warm-up hooks append from several tasks.
final class ModelHookLog: Sendable {
    private let calls = Locked<[ModelHookCall]>([])

    func append(_ call: ModelHookCall) { calls.withLock { $0.append(call) } }
    var count: Int { calls.withLock { $0.count } }
    func calls(from start: Int) -> [ModelHookCall] { calls.withLock { Array($0[start...]) } }
}

/// What a scripted hook throws.
struct ModelHookFailure: Error, CustomStringConvertible {
    /// The `ModelKey` of the hook.
    let key: Int
    var description: String { "\(ModelKey.name(key)) threw (scripted)" }
}

/// What `ModelHotel.init(context:)` throws.
struct ModelInitFailure: Error, CustomStringConvertible {
    var description: String { "ModelHotel cannot be created (scripted)" }
}

/// What every hook of one host does: log the call, throw if scripted to, and answer Bool events.
struct ModelScript: Sendable {
    var log = ModelHookLog()
    /// `ModelKey`s of the hooks that throw.
    var failing: Set<Int> = []
    /// `ModelKey`s of the Bool hooks that answer `true`; the others answer `false`.
    var answers: Set<Int> = []

    func call(_ participant: Int, _ event: ModelEvent, _ context: LifecycleContext) throws {
        log.append(ModelHookCall(event: event, participant: participant, state: context.applicationState))
        let key = ModelKey.of(participant, event)
        if failing.contains(key) { throw ModelHookFailure(key: key) }
    }

    func answer(_ participant: Int, _ event: ModelEvent, _ context: LifecycleContext) throws -> Bool {
        try call(participant, event, context)
        return answers.contains(ModelKey.of(participant, event))
    }
}

enum ModelScriptKey: LaunchOptionKey {
    static let defaultValue = ModelScript()
}

/// A custom event with a Bool answer, OR-combined.
struct ModelPing: CustomEvent {
    typealias Result = Bool
}

/// A custom event without a result.
struct ModelNote: CustomEvent {}

/// Hook bodies shared by every model participant. A type receives an event only if it also adopts the
/// event's capability protocol; the bodies below merely satisfy those requirements.
protocol ModelHooks: Sendable {
    /// The participant's index in the model (`ModelSpec.index`).
    static var modelIndex: Int { get }
    var script: ModelScript { get }
}

extension ModelHooks {
    func willFinishLaunching(_ context: LifecycleContext) throws -> Bool {
        try script.answer(Self.modelIndex, .willFinishLaunching, context)
    }
    func setUp(_ context: LifecycleContext) throws { try script.call(Self.modelIndex, .setup, context) }
    func initialize(_ context: LifecycleContext) throws { try script.call(Self.modelIndex, .initialize, context) }
    func warmUp(_ context: LifecycleContext) throws { try script.call(Self.modelIndex, .warmUp, context) }
    func didFinishLaunching(_ context: LifecycleContext) throws -> Bool {
        try script.answer(Self.modelIndex, .didFinishLaunching, context)
    }
    func willEnterForeground(_ context: LifecycleContext) throws {
        try script.call(Self.modelIndex, .willEnterForeground, context)
    }
    func didBecomeActive(_ context: LifecycleContext) throws {
        try script.call(Self.modelIndex, .didBecomeActive, context)
    }
    func willResignActive(_ context: LifecycleContext) throws {
        try script.call(Self.modelIndex, .willResignActive, context)
    }
    func didEnterBackground(_ context: LifecycleContext) throws {
        try script.call(Self.modelIndex, .didEnterBackground, context)
    }
    func willTerminate(_ context: LifecycleContext) throws { try script.call(Self.modelIndex, .willTerminate, context) }
    func didReceiveMemoryWarning(_ context: LifecycleContext) throws {
        try script.call(Self.modelIndex, .didReceiveMemoryWarning, context)
    }
    func open(_ url: URL, context: LifecycleContext) throws -> Bool {
        try script.answer(Self.modelIndex, .openURL, context)
    }

    static func handlePing(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ModelPing.self) { participant, _, context in
            try participant.script.answer(Self.modelIndex, .ping, context)
        }
    }

    static func handleNote(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ModelNote.self) { participant, _, context in
            try participant.script.call(Self.modelIndex, .note, context)
        }
    }
}

/// A model module, created from the script in its launch options.
protocol ModelModule: LifecycleModule, ModelHooks {
    init(script: ModelScript)
}

extension ModelModule {
    init(context: LifecycleContext) { self.init(script: context.launchOptions[ModelScriptKey.self]) }
}

/// Every built-in event and the Bool custom event.
struct ModelAlpha: ModelModule, WillFinishLaunching, SetupStage, InitializeStage, WarmUpStage, DidFinishLaunching,
    WillEnterForeground, DidBecomeActive, WillResignActive, DidEnterBackground, WillTerminate,
    DidReceiveMemoryWarning, OpenURL, CustomEventHandling
{
    static let modelIndex = 0
    static let priority: ModulePriority = .high
    let script: ModelScript

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) { handlePing(&handlers) }
}

/// The launch events, the foreground/background pairs, open-URL and the result-less custom event.
struct ModelBravo: ModelModule, WillFinishLaunching, DidFinishLaunching, DidBecomeActive, WillResignActive,
    DidEnterBackground, WillTerminate, OpenURL, CustomEventHandling
{
    static let modelIndex = 1
    static let priority: ModulePriority = .normal
    let script: ModelScript

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) { handleNote(&handlers) }
}

/// Two stages, a few running events and both custom events; ties with Bravo and Foxtrot.
struct ModelCharlie: ModelModule, SetupStage, WarmUpStage, DidReceiveMemoryWarning, WillEnterForeground,
    WillTerminate, CustomEventHandling
{
    static let modelIndex = 2
    static let priority: ModulePriority = .normal
    let script: ModelScript

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlePing(&handlers)
        handleNote(&handlers)
    }
}

/// The highest priority, held back by its dependency on Bravo; isolates its own launch failures.
struct ModelDelta: ModelModule, DependentModule, FailurePolicyModule, InitializeStage, WarmUpStage,
    DidFinishLaunching, DidBecomeActive, WillResignActive, OpenURL, DidReceiveMemoryWarning
{
    static let modelIndex = 3
    static let priority: ModulePriority = .maximum
    static let dependencies: [any LifecycleModule.Type] = [ModelBravo.self]
    static let failurePolicy: ModuleFailurePolicy = .isolate
    let script: ModelScript
}

/// Low priority, depends on Delta and Charlie (so its warm-up waits for theirs); aborts on its launch failures.
struct ModelEcho: ModelModule, DependentModule, FailurePolicyModule, WillFinishLaunching, SetupStage,
    InitializeStage, WarmUpStage, DidFinishLaunching, WillEnterForeground, DidBecomeActive, WillResignActive,
    DidEnterBackground, WillTerminate, CustomEventHandling
{
    static let modelIndex = 4
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [ModelDelta.self, ModelCharlie.self]
    static let failurePolicy: ModuleFailurePolicy = .abort
    let script: ModelScript

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) { handlePing(&handlers) }
}

/// Implements nothing: a participant that only takes a place in the order.
struct ModelFoxtrot: ModelModule {
    static let modelIndex = 5
    static let priority: ModulePriority = .normal
    let script: ModelScript
}

/// Ties with Alpha; only shutdown-side events, memory warnings and open-URL.
struct ModelGolf: ModelModule, WillResignActive, DidEnterBackground, WillTerminate, DidReceiveMemoryWarning, OpenURL {
    static let modelIndex = 6
    static let priority: ModulePriority = .high
    let script: ModelScript
}

/// Its initializer always throws.
struct ModelHotel: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) throws { throw ModelInitFailure() }
}

/// Enabled only in the launch profile `ModelPool.profile`.
struct ModelIndia: ModelModule, EnvironmentGatedModule, DidBecomeActive, WillResignActive, DidReceiveMemoryWarning,
    OpenURL, CustomEventHandling
{
    static let modelIndex = 8
    static let priority: ModulePriority = 7_500
    let script: ModelScript

    static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        .onlyInProfiles([ModelPool.profile], options)
    }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) { handleNote(&handlers) }
}

/// Depends on the gated India; ties with it.
struct ModelJuliet: ModelModule, DependentModule, SetupStage, WarmUpStage, DidFinishLaunching, WillTerminate,
    CustomEventHandling
{
    static let modelIndex = 9
    static let priority: ModulePriority = 7_500
    static let dependencies: [any LifecycleModule.Type] = [ModelIndia.self]
    let script: ModelScript

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) { handlePing(&handlers) }
}

/// The program's delegate: no stages, everything else, and the Bool custom event.
struct ModelAppDelegate: ApplicationDelegate, ModelHooks, WillFinishLaunching, DidFinishLaunching,
    WillEnterForeground, DidBecomeActive, WillResignActive, DidEnterBackground, WillTerminate,
    DidReceiveMemoryWarning, OpenURL, CustomEventHandling
{
    static let modelIndex = ModelPool.delegateIndex
    let script: ModelScript

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) { handlePing(&handlers) }
}

extension ModelPool {
    /// The module types, in the order of ``modules``.
    static let types: [any LifecycleModule.Type] = [
        ModelAlpha.self, ModelBravo.self, ModelCharlie.self, ModelDelta.self, ModelEcho.self, ModelFoxtrot.self,
        ModelGolf.self, ModelHotel.self, ModelIndia.self, ModelJuliet.self,
    ]

    /// Host participant names (module-qualified) to participant indices.
    static let indices: [String: Int] = {
        var indices: [String: Int] = [String(reflecting: ModelAppDelegate.self): delegateIndex]
        for (index, type) in types.enumerated() { indices[String(reflecting: type)] = index }
        return indices
    }()

    /// The participant index of a host participant name, or -1 for a name the model does not know.
    static func index(_ participant: String) -> Int { indices[participant] ?? -1 }

    /// The model's short name of a host participant name (the name itself if the model does not know it).
    static func shortName(_ participant: String) -> String { indices[participant].map { name($0) } ?? participant }
}
