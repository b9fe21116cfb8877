/// One built-in lifecycle event: one row of ``EventTable``, everything the places that handle events
/// derive from it.
///
/// The names follow one convention, so a row states each name once: the event `didEnterBackground` is
/// `LifecycleEvent.didEnterBackground`, the case `LifecycleEvent.Builtin.didEnterBackground` and the
/// `ModuleHooks` methods `didEnterBackground(_:)` and, when the hook may be synchronous,
/// `didEnterBackground(_:synchronously:)`; its capability protocol is `DidEnterBackground`. The hook's own
/// name may differ (`setUp(_:)` for the event `setup`, `open(_:context:)` for `openURL`). The events that had a
/// `Sync…` twin keep it for one release as a deprecated alias, `SyncDidEnterBackground`, of a protocol that is
/// not API, `_SyncDidEnterBackground`.
package struct EventDefinition: Sendable, Hashable {
    /// The order in which participants receive the event (`LifecycleEvent.direction`).
    package enum Direction: String, Sendable, Hashable {
        /// The program's delegate first, then modules by priority, highest first.
        case forward
        /// The exact mirror of forward.
        case reverse
    }

    /// How the participants' answers combine (`LifecycleEvent.resultRule`).
    package enum Result: Sendable, Hashable {
        /// The hook returns nothing.
        case none
        /// The hook returns a `Bool`; the answers are OR-combined, and `whenUnanswered` is the result when
        /// nobody answers.
        case anyTrue(whenUnanswered: Bool)
    }

    /// A parameter of the hook that carries the event's payload, before the context: `_ url: URL`.
    package struct Parameter: Sendable, Hashable {
        /// The argument label, `_` for none.
        package var label: String
        package var name: String
        /// The type, as Swift source: `URL`.
        package var type: String

        package init(_ label: String, _ name: String, _ type: String) {
            self.label = label
            self.name = name
            self.type = type
        }
    }

    /// The event's name: its `LifecycleEvent` property, its `Builtin` case and its `ModuleHooks` method.
    package var name: String
    /// The capability protocol a participant adopts to handle the event.
    package var capability: String
    /// Whether the hook may be a synchronous function, which the proxy calls without an `await`: the generated
    /// manifest registers a module's synchronous hook through `ModuleHooks.<name>(_:synchronously:)`.
    package var hasSyncForm: Bool
    /// Whether the event keeps its `Sync<capability>` protocol, deprecated, for one release (issue 31): the
    /// events that had one before synchronous hooks were read from the source. No new event gets one.
    package var hasDeprecatedSyncProtocol: Bool
    /// The hook's base name: `setUp` for `setUp(_:)`.
    package var hook: String
    /// The parameters before the context. An event with a payload is delivered through an entry point of its
    /// own, named after the hook and taking the payload (`open(_:observer:from:supervisor:)`).
    package var payload: [Parameter]
    package var direction: Direction
    package var result: Result
    /// The documentation of `LifecycleEvent.<name>`.
    package var summary: String
    /// What the event is, for the first line of the capability protocol's documentation ("the first
    /// launch stage"), or `nil`.
    package var role: String?
    /// The documentation of the hook requirement.
    package var hookDocumentation: String

    package init(
        name: String,
        capability: String,
        hasSyncForm: Bool = true,
        hasDeprecatedSyncProtocol: Bool = false,
        hook: String,
        payload: [Parameter] = [],
        direction: Direction = .forward,
        result: Result = .none,
        summary: String,
        role: String? = nil,
        hookDocumentation: String
    ) {
        self.name = name
        self.capability = capability
        self.hasSyncForm = hasSyncForm
        self.hasDeprecatedSyncProtocol = hasDeprecatedSyncProtocol && hasSyncForm
        self.hook = hook
        self.payload = payload
        self.direction = direction
        self.result = result
        self.summary = summary
        self.role = role
        self.hookDocumentation = hookDocumentation
    }

    /// The deprecated name of the synchronous form, `Sync<capability>`, if the event keeps one: what code
    /// written before adopts, and what the scanner reads.
    package var syncCapability: String? { hasDeprecatedSyncProtocol ? "Sync" + capability : nil }

    /// The protocol behind ``syncCapability``, `_Sync<capability>`: the hook without `async`, kept for one
    /// release and not API (a leading underscore). The runtime casts to it.
    package var syncProtocol: String? { hasDeprecatedSyncProtocol ? "_Sync" + capability : nil }

    /// The `package` class that keeps a registered synchronous function, `DidBecomeActiveFunction`, if the
    /// hook may be synchronous.
    package var functionClass: String? { hasSyncForm ? capability + "Function" : nil }

    /// The type of a synchronous hook as `ModuleHooks` stores it, a function of the payload and the context:
    /// `@Sendable (URL, LifecycleContext) throws -> Bool`.
    package var functionType: String {
        let parameters = payload.map(\.type) + ["LifecycleContext"]
        return "@Sendable (\(parameters.joined(separator: ", "))) throws -> \(answers ? "Bool" : "Void")"
    }

    /// The argument labels of the hook, `_` for none: `["_", "context"]` for `open(_:context:)`.
    package var hookLabels: [String] { payload.map(\.label) + [payload.isEmpty ? "_" : "context"] }

    /// The types of the hook's parameters as the table writes them: `["URL", "LifecycleContext"]`.
    package var hookTypes: [String] { payload.map(\.type) + ["LifecycleContext"] }

    /// A synchronous hook kept as a function, called on the payload's and the context's values:
    /// `$0.function(url, context)`.
    package func functionCall(on function: String) -> String {
        "\(function)(\((payload.map(\.name) + ["context"]).joined(separator: ", ")))"
    }

    /// Whether the hook returns a `Bool` (an answer) rather than nothing.
    package var answers: Bool { result != .none }

    /// The hook's parameters as declared: the payload, then the context, unlabelled when it stands alone
    /// (`_ context: LifecycleContext`) and labelled after a payload (`_ url: URL, context: LifecycleContext`).
    package var hookParameters: String {
        let payload = payload.map { "\($0.label) \($0.name): \($0.type)" }
        return (payload + [payload.isEmpty ? "_ context: LifecycleContext" : "context: LifecycleContext"])
            .joined(separator: ", ")
    }

    /// The hook's name with its argument labels, as a symbol link writes it: `open(_:context:)`.
    package var hookSelector: String {
        hook + "(" + payload.map { "\($0.label):" }.joined() + (payload.isEmpty ? "_:" : "context:") + ")"
    }

    /// The hook called on `receiver` with the payload's and the context's values: `$0.open(url, context: context)`.
    package func hookCall(on receiver: String) -> String {
        let payload = payload.map { $0.label == "_" ? $0.name : "\($0.label): \($0.name)" }
        let arguments = payload + [payload.isEmpty ? "context" : "context: context"]
        return "\(receiver).\(hook)(\(arguments.joined(separator: ", ")))"
    }
}
