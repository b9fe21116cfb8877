public import LifecycleCore
public import LifecycleScopes

/// Records every delivery to the scopes of a host, in the order the hooks returned, so a test can assert
/// the order of actions in a few lines:
///
/// ```swift
/// let recorder = ScopeRecorder(observing: host)
/// try await host.scopes!.withScope(.request, "GET /", adopting: Timing()) { _ in }
/// #expect(recorder.timeline("GET /") == [
///     "begin AuditAction", "begin Timing", "activate AuditAction", "activate Timing",
///     "deactivate Timing", "deactivate AuditAction", "end Timing", "end AuditAction",
/// ])
/// ```
///
/// It records the scopes made after it started observing. Safe to use from any task.
public final class ScopeRecorder: ScopeObserver {
    /// One delivery.
    public struct Delivery: Sendable, CustomStringConvertible {
        /// The scope's summary when the delivery completed.
        public let scope: ScopeID
        /// The scope's name and kind.
        public let scopeName: String
        public let kind: ScopeKind
        /// The event delivered.
        public let event: ScopeEvent
        /// The action, behavior or closure, by module-qualified name or label.
        public let action: String
        /// The failure, when it threw.
        public let failure: ScopeFailure?

        /// `"begin Timing"`: the event and the action's short name, `" failed"` when it threw.
        public var description: String {
            "\(event) \(Self.short(action))" + (failure == nil ? "" : " failed")
        }

        /// The last component of a module-qualified name; labels are kept whole.
        static func short(_ name: String) -> String {
            guard !name.contains(" "), let last = name.split(separator: ".").last else { return name }
            return String(last)
        }
    }

    private let records = Locked<[Delivery]>([])

    /// A recorder that observes nothing yet: pass it to `ScopeRegistry.observe(_:)`.
    public init() {}

    /// A recorder observing the scopes of `host`, which must have scopes (`withScopes`).
    public convenience init(observing host: ApplicationHost) {
        self.init()
        host.scopes?.observe(self)
    }

    public func scope(_ scope: Scope, delivered event: ScopeEvent, to action: String, failure: ScopeFailure?) {
        let delivery = Delivery(
            scope: scope.id,
            scopeName: scope.name,
            kind: scope.kind,
            event: event,
            action: action,
            failure: failure
        )
        records.withLock { $0.append(delivery) }
    }

    /// Every delivery recorded, in order.
    public var deliveries: [Delivery] { records.withLock { $0 } }

    /// The deliveries to the scopes named `scopeName` (every scope when `nil`), as `"begin Timing"` lines.
    public func timeline(_ scopeName: String? = nil) -> [String] {
        deliveries.filter { scopeName == nil || $0.scopeName == scopeName }.map(\.description)
    }

    /// The actions that received `event` in the scopes named `scopeName` (every scope when `nil`), by short
    /// name, in order.
    public func receivers(of event: ScopeEvent, in scopeName: String? = nil) -> [String] {
        deliveries.filter { $0.event == event && (scopeName == nil || $0.scopeName == scopeName) }
            .map { Delivery.short($0.action) }
    }

    /// Forgets what was recorded.
    public func reset() { records.withLock { $0.removeAll() } }
}
