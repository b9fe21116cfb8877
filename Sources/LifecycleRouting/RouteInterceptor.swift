public import LifecycleCore

/// Judges every intent before its route's handler runs: lets it through, sends it elsewhere first, or
/// refuses it. The discovery plugin finds every type that adopts it, as it finds modules; the host creates
/// one of each and runs them for every intent, highest ``priority`` first.
///
/// ```swift
/// struct MaintenanceInterceptor: RouteInterceptor {
///     static let priority = 100
///
///     init(context: LifecycleContext) {}
///
///     func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
///         if context.applicationState == .background {
///             decision.reject(Maintenance())
///         } else {
///             decision.continue()
///         }
///     }
/// }
/// ```
///
/// It must decide exactly once, before `intercept` returns: deciding twice is
/// ``RouteError/Code/decidedTwice``, returning without deciding ``RouteError/Code/neverDecided``, and taking
/// longer than ``budget`` ``RouteError/Code/timedOut``. Each names the interceptor; none hangs the caller.
public protocol RouteInterceptor: Sendable {
    /// Higher runs first. Interceptors of equal priority run in the order of their type names
    /// (module-qualified), so the order never depends on discovery. Default 0.
    static var priority: Int { get }

    /// How long ``intercept(_:context:decision:)`` may take to decide; `nil` (the default) for the router's
    /// (`ModuleManifest.withRouting(interceptorBudget:)`).
    static var budget: Duration? { get }

    /// Created once per host, when the host is built.
    init(context: LifecycleContext)

    /// Decides on `intent` through `decision`: `continue()`, `switch(to:)`, or `reject(_:)`.
    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async
}

extension RouteInterceptor {
    public static var priority: Int { 0 }
    public static var budget: Duration? { nil }

    /// The interceptor's name in errors: its type's name, with its module.
    public static var interceptorName: String { String(reflecting: Self.self) }
}

/// An interceptor as the router runs it: a global interceptor, called through its protocol, or the one a
/// route's registration adds, a closure. A class, so the chain copies a reference per turn, not an
/// existential.
final class AnyInterceptor: Sendable {
    typealias Call = @Sendable (RouteIntent, RouteContext, InterceptorDecision) async -> Void

    enum Body: Sendable {
        case global(any RouteInterceptor)
        case own(Call)
    }

    let name: String
    let priority: Int
    /// Its own budget, or `nil` for the router's.
    let budget: Duration?
    let body: Body

    init<I: RouteInterceptor>(_ interceptor: I) {
        name = I.interceptorName
        priority = I.priority
        budget = I.budget
        body = .global(interceptor)
    }

    init(name: String, budget: Duration?, call: @escaping Call) {
        self.name = name
        self.priority = 0
        self.budget = budget
        self.body = .own(call)
    }

    /// The global order: highest priority first, then by name.
    static func ordered(_ interceptors: [AnyInterceptor]) -> [AnyInterceptor] {
        interceptors.sorted { ($0.priority, $1.name) > ($1.priority, $0.name) }
    }
}
