import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleRouting
import LifecycleScopes
import LifecycleServices
import LifecycleWork

// The modules of the whole-system model (SystemModelTests): a store that provides three services (one per
// scope among them) and receives a message, a cache that depends on it, an audit registered at run time, and
// two global scope actions. What they do is decided by one `SystemWorld` per host, in its launch options.

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
        var scopeFaults: Set<SystemScopeFault> = []
        /// What each scope received, by the scope's name: `begin log`, `release cart failed`.
        var scopeLines: [String: [String]] = [:]
        var carts = 0
        var cartScopes: [Int: String] = [:]
        var scopesMade = 0
        /// The sessions begun, oldest first, until they end.
        var sessions: [Scope] = []
        /// Whose work throws as soon as it starts.
        var failingWork: Set<String> = []
        /// Whose work's body runs now, and how many times each work's body started.
        var workRunning: Set<String> = []
        var workStarts: [String: Int] = [:]
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

    func setScopeFault(_ fault: SystemScopeFault, _ on: Bool) {
        state.withLock { state in
            if on { state.scopeFaults.insert(fault) } else { state.scopeFaults.remove(fault) }
        }
    }

    func clearScopeFaults() { state.withLock { $0.scopeFaults = [] } }

    /// Records that the scope `scope` received `line`, and throws if `fault` is injected.
    func scopeReceived(_ line: String, in scope: Scope, failingWith fault: SystemScopeFault? = nil) throws {
        try record(line, in: scope.name, failingWith: fault)
    }

    private func record(_ line: String, in name: String, failingWith fault: SystemScopeFault?) throws {
        let fails = state.withLock { state in
            let fails = fault.map(state.scopeFaults.contains) ?? false
            state.scopeLines[name, default: []].append(fails ? line + " failed" : line)
            return fails
        }
        if fails { throw SystemFault(receiver: line) }
    }

    /// Notes that `cart` is the scope `name`'s, so its shutdown is recorded there.
    func cart(_ cart: SystemCart, isIn name: String) { state.withLock { $0.cartScopes[cart.id] = name } }

    /// The cart's shutdown: recorded in its scope's lines; throws if injected.
    func release(_ cart: SystemCart) throws {
        let name = state.withLock { $0.cartScopes[cart.id] } ?? "cart \(cart.id) of no known scope"
        try record("release cart", in: name, failingWith: .cartShutdownFails)
    }

    /// What the scope named `name` received, in order.
    func scopeLines(_ name: String) -> [String] { state.withLock { $0.scopeLines[name] ?? [] } }

    /// A new scope name with `prefix`: `r7`, `s8`.
    func nextScopeName(_ prefix: String) -> String {
        state.withLock { state in
            state.scopesMade += 1
            return "\(prefix)\(state.scopesMade)"
        }
    }

    func makeCart() -> SystemCart {
        state.withLock { state in
            state.carts += 1
            return SystemCart(id: state.carts, world: self)
        }
    }

    func sessionBegan(_ session: Scope) { state.withLock { $0.sessions.append(session) } }

    /// The oldest session that has not ended, taken off the list.
    func takeOldestSession() -> Scope? {
        state.withLock { state in state.sessions.isEmpty ? nil : state.sessions.removeFirst() }
    }

    func setWorkFails(_ module: String, _ failing: Bool) {
        state.withLock { state in
            if failing { state.failingWork.insert(module) } else { state.failingWork.remove(module) }
        }
    }

    /// The body of `module`'s work: counts the start, throws if faulted, else runs until asked to stop.
    func work(of module: String, _ context: WorkContext) async throws {
        let fails = state.withLock { state in
            state.workStarts[module, default: 0] += 1
            let fails = state.failingWork.contains(module)
            if !fails { state.workRunning.insert(module) }
            return fails
        }
        if fails { throw SystemFault(receiver: "\(module)'s work") }
        await context.gracefulShutdown()
        _ = state.withLock { $0.workRunning.remove(module) }
    }

    /// Whose work's body runs now, and the starts of each.
    var work: (running: Set<String>, starts: [String: Int]) {
        state.withLock { ($0.workRunning, $0.workStarts) }
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

/// The scoped service: one per scope, shut down at the scope's end.
final class SystemCart: Sendable {
    let id: Int
    let world: SystemWorld
    init(id: Int, world: SystemWorld) {
        self.id = id
        self.world = world
    }
}

/// The transient service: which resolution made it.
struct SystemTicket: Sendable {
    let number: Int
}

/// Asks every receiver how it is numbered.
struct SystemAsk: Message {
    typealias Reply = Int
}

struct SystemStore: MessageReceiving, ServiceProvidingModule, RouteServing, WorkingModule {
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
        services.scoped(SystemCart.self) { resolver in
            resolver.launchOptions[SystemWorldKey.self].makeCart()
        } shutdown: { cart in
            try cart.world.release(cart)
        }
    }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(SystemAsk.self) { module, _, _ in try module.world.answer("store", 1) }
    }

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(SystemSignIn.self) { module, _, _ in module.world.signIn() }
        routes.on(SystemNoop.self) { _, _, _ in }
    }

    /// Runs for the application's lifetime, from launch's end.
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("listen", .application()) { module, context in try await module.world.work(of: "store", context) }
    }
}

struct SystemCache: MessageReceiving, DependentModule, DidEnterBackground, RouteServing, WorkingModule {
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

    /// Runs while the application is active; a throw is not restarted and escalates to nothing, so the work
    /// stays stopped until the host next becomes active.
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(restart: .temporary, escalation: .ignore)
        work.run("refresh", .whileActive, policy: policy) { module, context in
            try await module.world.work(of: "cache", context)
        }
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

// MARK: - Scopes

/// A fault the test injects into scopes.
enum SystemScopeFault: String, CaseIterable, Sendable {
    /// The request gate (policy `.abort`) throws at `begin`: the request scope fails.
    case gateAbortsBegin
    /// The log (policy `.isolate`) throws at `activate`: reported, delivery goes on.
    case logFailsActivate
    /// The cart's shutdown throws at the scope's end: a failure of the scope.
    case cartShutdownFails
}

/// Logs every scope of every kind; runs first (priority high). Isolates its failures (the default).
struct SystemScopeLog: ScopeAction {
    static let kinds: ScopeKinds = .all
    static let priority: ModulePriority = .high
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    func didBegin(_ scope: Scope) async throws { try world.scopeReceived("begin log", in: scope) }
    func didActivate(_ scope: Scope) async throws {
        try world.scopeReceived("activate log", in: scope, failingWith: .logFailsActivate)
    }
    func willDeactivate(_ scope: Scope) async throws { try world.scopeReceived("deactivate log", in: scope) }
    func willEnd(_ scope: Scope) async throws { try world.scopeReceived("end log", in: scope) }
}

/// Guards requests only; runs second (priority low), and a throw at `begin` fails the request (`.abort`).
struct SystemScopeGate: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .low
    static let failurePolicy: ModuleFailurePolicy = .abort
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    func didBegin(_ scope: Scope) async throws {
        try world.scopeReceived("begin gate", in: scope, failingWith: .gateAbortsBegin)
    }
    func didActivate(_ scope: Scope) async throws { try world.scopeReceived("activate gate", in: scope) }
    func willDeactivate(_ scope: Scope) async throws { try world.scopeReceived("deactivate gate", in: scope) }
    func willEnd(_ scope: Scope) async throws { try world.scopeReceived("end gate", in: scope) }
}
