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
        /// Writes what the plan shows, for example "requires service `DatabaseClient`", when a plan asks:
        /// naming a type costs microseconds, and a host with a thousand edges would pay them all at build.
        private let describeReason: @Sendable () -> String

        /// What the plan shows.
        package var reason: String { describeReason() }

        package init(_ type: any LifecycleModule.Type, reason: @escaping @Sendable () -> String) {
            self.type = type
            self.describeReason = reason
        }
    }
}
