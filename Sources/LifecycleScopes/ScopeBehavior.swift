public import LifecycleCore

/// A behavior: a value with its own stored state that a scope adopts, receiving the scope's events after
/// the global actions. Several compose at the use site, with no type per combination, as the
/// "view controller behaviors" article composes them into a controller:
///
/// ```swift
/// struct Timing: ScopeBehavior {
///     var started: ContinuousClock.Instant?
///     mutating func didBegin(_ scope: Scope) async throws { started = .now }
///     mutating func willEnd(_ scope: Scope) async throws { print(scope.name, started.map { .now - $0 } ?? .zero) }
/// }
///
/// try await scopes.withScope(.request, "GET /", adopting: Timing(), Auditing(), RateLimit(perSecond: 100)) {
///     scope in …
/// }
/// ```
///
/// The scope keeps each adopted value and hands it to every hook, so what a hook stores, the next hook
/// reads. Behaviors adopted together receive forward events (`begin`, `activate`) in the order they were
/// listed, and `deactivate` and `end` in reverse. Implement only the hooks you need.
public protocol ScopeBehavior: Sendable {
    /// What a throw does, as for ``ScopeAction/failurePolicy``: `.isolate` by default.
    static var failurePolicy: ModuleFailurePolicy { get }

    /// The scope has begun, or the behavior was adopted by a scope that had.
    mutating func didBegin(_ scope: Scope) async throws
    /// The scope has become active, or the behavior was adopted by an active scope.
    mutating func didActivate(_ scope: Scope) async throws
    /// The scope is about to become inactive, or to end while active.
    mutating func willDeactivate(_ scope: Scope) async throws
    /// The scope is about to end.
    mutating func willEnd(_ scope: Scope) async throws
}

extension ScopeBehavior {
    public static var failurePolicy: ModuleFailurePolicy { .isolate }
    public mutating func didBegin(_ scope: Scope) async throws {}
    public mutating func didActivate(_ scope: Scope) async throws {}
    public mutating func willDeactivate(_ scope: Scope) async throws {}
    public mutating func willEnd(_ scope: Scope) async throws {}

    /// Delivers `event` to the matching hook.
    mutating func receive(_ event: ScopeEvent, _ scope: Scope) async throws {
        switch event {
        case .begin: try await didBegin(scope)
        case .activate: try await didActivate(scope)
        case .deactivate: try await willDeactivate(scope)
        case .end: try await willEnd(scope)
        }
    }
}
