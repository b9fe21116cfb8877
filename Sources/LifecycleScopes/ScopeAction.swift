public import LifecycleCore

/// A global action: a type that runs for every scope of its ``kinds``, found by the discovery plugin as
/// modules are. DZViewControllerLifeCircleAction's global actions, for requests, sessions and jobs.
///
/// ```swift
/// struct RequestLogAction: ScopeAction {
///     static let kinds: ScopeKinds = [.request]
///     static let priority: ModulePriority = .normal
///
///     init(context: LifecycleContext) {}
///
///     func didBegin(_ scope: Scope) async throws { print("→", scope.name) }
///     func willEnd(_ scope: Scope) async throws { print("←", scope.name) }
/// }
/// ```
///
/// The host makes one instance when it is built (`init(context:)`) and shares it between every scope, so
/// keep per-scope state in the scope (a ``ScopeBehavior``), not in the action. Forward events reach global
/// actions by ``priority``, highest first, ties by type name, before the scope's own adoptions; `deactivate`
/// and `end` go in the mirror order. Implement only the hooks you need: the others do nothing.
///
/// `@_alwaysEmitConformanceMetadata` keeps the conformance record in optimized builds, for the completeness
/// check of `LifecycleTesting`.
@_alwaysEmitConformanceMetadata
public protocol ScopeAction: Sendable {
    /// The kinds of scope the action runs for. No default: an action for every kind says `.all`.
    static var kinds: ScopeKinds { get }
    /// The action's place among the global actions of a kind. No default, as for modules.
    static var priority: ModulePriority { get }
    /// What a throw does: `.isolate` (the default) reports it and delivery goes on; `.abort` fails the scope
    /// when it happens at `begin` or `activate` (see ``ScopeError/Code/actionFailed``). A teardown never stops.
    static var failurePolicy: ModuleFailurePolicy { get }

    /// Creates the action, once per host, when the host is built.
    init(context: LifecycleContext)

    /// The scope has begun.
    func didBegin(_ scope: Scope) async throws
    /// The scope has become active. `scope.activations` is 1 on its first activation.
    func didActivate(_ scope: Scope) async throws
    /// The scope is about to become inactive, or to end while active.
    func willDeactivate(_ scope: Scope) async throws
    /// The scope is about to end.
    func willEnd(_ scope: Scope) async throws
}

extension ScopeAction {
    public static var failurePolicy: ModuleFailurePolicy { .isolate }
    public func didBegin(_ scope: Scope) async throws {}
    public func didActivate(_ scope: Scope) async throws {}
    public func willDeactivate(_ scope: Scope) async throws {}
    public func willEnd(_ scope: Scope) async throws {}

    /// The action's name in listings, failures and errors: its module-qualified type name.
    public static var actionName: String { String(reflecting: Self.self) }
}
