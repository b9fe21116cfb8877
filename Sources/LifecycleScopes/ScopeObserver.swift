/// Told about every delivery of a registry's scopes, as it completes: for test recorders
/// (`LifecycleTesting.ScopeRecorder`) and tracing. Set with ``ScopeRegistry/observe(_:)``; a registry
/// without an observer pays one branch per delivery.
public protocol ScopeObserver: Sendable {
    /// `action` received `event` in `scope`; `failure` is set when it threw.
    func scope(_ scope: Scope, delivered event: ScopeEvent, to action: String, failure: ScopeFailure?)
}
