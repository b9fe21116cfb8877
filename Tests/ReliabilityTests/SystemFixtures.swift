import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleRouting
import LifecycleServices

// The modules of the whole-system model (SystemModelTests): a store that provides two services and receives a
// message, a cache that depends on it, and an audit registered at run time. What they do is decided by one
// `SystemWorld` per host, in its launch options.

/// What one host's modules share: which receivers throw, whether the singleton's factory throws, and how many
/// services the factories made.
final class SystemWorld: Sendable {
    private struct State {
        var failingReceivers: Set<String> = []
        var failingHooks: Set<String> = []
        var factoryFails = false
        var singletons = 0
        var tickets = 0
        var guardMode = SystemGuardMode.pass
        var signedIn = false
        /// The interceptors' judgements, `guard show`, in order.
        var judgements: [String] = []
    }

    private let state = Locked(State())

    func setFailing(_ receiver: String, _ failing: Bool) {
        state.withLock { state in
            if failing { state.failingReceivers.insert(receiver) } else { state.failingReceivers.remove(receiver) }
        }
    }

    func setFactoryFails(_ fails: Bool) { state.withLock { $0.factoryFails = fails } }

    func setGuard(_ mode: SystemGuardMode) { state.withLock { $0.guardMode = mode } }
    var guardMode: SystemGuardMode { state.withLock { $0.guardMode } }
    var isSignedIn: Bool { state.withLock { $0.signedIn } }
    func signIn() { state.withLock { $0.signedIn = true } }
    func judge(_ line: String) { state.withLock { $0.judgements.append(line) } }

    /// The judgements since the last call.
    func takeJudgements() -> [String] {
        state.withLock { state in
            defer { state.judgements = [] }
            return state.judgements
        }
    }

    func setHookFails(_ module: String, _ failing: Bool) {
        state.withLock { state in
            if failing { state.failingHooks.insert(module) } else { state.failingHooks.remove(module) }
        }
    }

    /// The host's fault seam (the test kit's): a faulted module's `didEnterBackground` throws in place of the
    /// call.
    var injection: FaultInjection {
        FaultInjection { [self] participant, site in
            guard case .hook(.didEnterBackground) = site, let module = SystemModule.named(participant.name),
                state.withLock({ $0.failingHooks.contains(module.rawValue) })
            else { return nil }
            return .failure(SystemFault(receiver: module.rawValue))
        }
    }

    /// The reply of `receiver`, or the failure it throws.
    func answer(_ receiver: String, _ reply: Int) throws -> Int {
        if state.withLock({ $0.failingReceivers.contains(receiver) }) { throw SystemFault(receiver: receiver) }
        return reply
    }

    func makeSingleton() throws -> SystemCounter {
        try state.withLock { state in
            if state.factoryFails { throw SystemFault(receiver: "factory") }
            state.singletons += 1
            return SystemCounter(id: state.singletons)
        }
    }

    func makeTicket() -> SystemTicket {
        state.withLock { state in
            state.tickets += 1
            return SystemTicket(number: state.tickets)
        }
    }
}

enum SystemWorldKey: LaunchOptionKey {
    static let defaultValue = SystemWorld()
}

struct SystemFault: Error, CustomStringConvertible {
    let receiver: String
    var description: String { "\(receiver) failed (injected)" }
}

/// The singleton service: which creation it is.
final class SystemCounter: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// The transient service: which resolution made it.
struct SystemTicket: Sendable {
    let number: Int
}

/// Asks every receiver how it is numbered.
struct SystemAsk: Message {
    typealias Reply = Int
}

struct SystemStore: MessageReceiving, ServiceProvidingModule, RouteServing {
    static let priority: ModulePriority = .high
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton(SystemCounter.self) { resolver in
            try resolver.launchOptions[SystemWorldKey.self].makeSingleton()
        }
        services.transient(SystemTicket.self) { resolver in
            resolver.launchOptions[SystemWorldKey.self].makeTicket()
        }
    }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(SystemAsk.self) { module, _, _ in try module.world.answer("store", 1) }
    }

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(SystemSignIn.self) { module, _, _ in module.world.signIn() }
        routes.on(SystemNoop.self) { _, _, _ in }
    }
}

struct SystemCache: MessageReceiving, DependentModule, DidEnterBackground, RouteServing {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [SystemStore.self] }
    static var messageTags: [MessageTag] { ["cache"] }
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(SystemAsk.self) { module, _, _ in try module.world.answer("cache", 2) }
    }

    func didEnterBackground(_ context: LifecycleContext) {}

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(SystemShow.self) { module, _, _ in try module.world.answer("show", 20) }
    }
}

struct SystemAudit: MessageReceiving {
    static let priority: ModulePriority = .low
    static var messageTags: [MessageTag] { ["cache"] }
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(SystemAsk.self) { module, _, _ in
            await Task.yield()
            return try module.world.answer("audit", 3)
        }
    }
}

// MARK: - Routing

/// What the guard interceptor does with `SystemShow`.
enum SystemGuardMode: String, CaseIterable, Sendable {
    /// Lets everything through.
    case pass
    /// Rejects `SystemShow`.
    case reject
    /// Switches to `SystemSignIn`, then restarts, until someone signed in.
    case requireSignIn
    /// Switches to `SystemNoop`, then restarts, every time: a loop.
    case loop
}

struct SystemGuardRefusal: Error, CustomStringConvertible {
    var description: String { "not allowed (injected)" }
}

/// Shows the cache's number: served by the cache.
struct SystemShow: Route {
    typealias Result = Int
    init() {}
    init(parameters: RouteParameters) {}
}

/// Signs in: served by the store.
struct SystemSignIn: Route {
    init() {}
    init(parameters: RouteParameters) {}
}

/// Does nothing: served by the store.
struct SystemNoop: Route {
    init() {}
    init(parameters: RouteParameters) {}
}

/// Judges first (priority 100), as the world's mode says.
struct SystemGuard: RouteInterceptor {
    static let priority = 100
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        world.judge("guard \(SystemRouteName.of(intent))")
        guard intent.is(SystemShow.self) else { return decision.continue() }
        switch world.guardMode {
        case .pass: decision.continue()
        case .reject: decision.reject(SystemGuardRefusal())
        case .requireSignIn:
            if world.isSignedIn { decision.continue() } else { decision.switch(to: RouteIntent(SystemSignIn())) }
        case .loop: decision.switch(to: RouteIntent(SystemNoop()))
        }
    }
}

/// Judges second (priority 10): always lets through, and records that it judged.
struct SystemTally: RouteInterceptor {
    static let priority = 10
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        world.judge("tally \(SystemRouteName.of(intent))")
        decision.continue()
    }
}

enum SystemRouteName {
    static func of(_ intent: RouteIntent) -> String {
        if intent.is(SystemShow.self) { return "show" }
        if intent.is(SystemSignIn.self) { return "signIn" }
        return "noop"
    }
}
