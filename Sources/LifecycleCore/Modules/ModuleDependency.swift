/// One module another depends on, and why: what ``ApplicationHost/dependencies(of:)`` reports, so a plan
/// can say why a module comes where it does.
///
/// ```swift
/// for dependency in host.dependencies(of: cache) {
///     print("\(cache.name) after \(dependency.module.name): \(dependency.reason)")
/// }
/// ```
public struct ModuleDependency: Sendable, Hashable, CustomStringConvertible {
    /// Why one module is ordered after another.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The dependent lists it in ``DependentModule/dependencies``.
        case declared
        /// Something built on the host added the edge, for example the service registry for a required
        /// service; the text says what.
        case added(String)

        public var description: String {
            switch self {
            case .declared: "declared in `dependencies`"
            case .added(let reason): reason
            }
        }
    }

    /// The module depended on.
    public let module: Participant
    /// Why.
    public let reason: Reason

    package init(module: Participant, reason: Reason) {
        self.module = module
        self.reason = reason
    }

    public var description: String { "\(module.name) (\(reason))" }

    /// A dependency added to a manifest entry beyond the type's own, with its reason. Ordered exactly as
    /// a declared dependency: forward events after it, reverse events before it.
    package struct Added: Sendable {
        package let type: any LifecycleModule.Type
        /// What the plan shows, for example "requires service `DatabaseClient`".
        package let reason: String

        package init(_ type: any LifecycleModule.Type, reason: String) {
            self.type = type
            self.reason = reason
        }
    }
}
