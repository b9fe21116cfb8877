extension EventSources {
    // MARK: - LifecycleProxy/DelegateProxy+Events.swift

    /// `BuiltinImplementers`, each event's implementers in delivery order, and the proxy's fan-out of each
    /// event: one direct call of the hook per implementer, as `Implementers.fanOut` takes it.
    static func delegateProxy(_ events: [EventDefinition]) -> GeneratedSource {
        var lines = foundationImport(events, access: "package")
        lines += [
            "package import LifecycleCore",
            "",
            "/// The implementers of every built-in event, in delivery order: one ``Implementers`` list per event, built",
            "/// once from the participants' hooks in the event's direction.",
            "struct BuiltinImplementers: Sendable {",
        ]
        for event in events {
            lines += generic("    let \(event.name): ", "Implementers", hookTypes(event), "")
        }
        lines += [
            "",
            "    /// The hooks gathered in `lists`, ordered for delivery; `participants` holds every participant, by the",
            "    /// positions the lists record.",
            "    init(_ lists: BuiltinHookLists, _ participants: [Participant]) {",
        ]
        lines += events.map {
            "        \($0.name) = Implementers(lists.\($0.name), participants, .\($0.direction.rawValue))"
        }
        lines += [
            "    }",
            "",
            "    /// The participants that receive `event`, in delivery order.",
            "    func participants(of event: LifecycleEvent.Builtin) -> [Participant] {",
            "        switch event {",
        ]
        lines += events.map { "        case .\($0.name): \($0.name).participants" }
        lines += ["        }", "    }", "}", "", "extension DelegateProxy {"]
        lines += deliver(events)
        for event in events where !event.payload.isEmpty {
            lines += [""] + entryPoint(event)
        }
        lines.append("}")
        return file("Sources/LifecycleProxy/DelegateProxy+Events.swift", lines)
    }

    /// The fan-out of every event without a payload, by event.
    private static func deliver(_ events: [EventDefinition]) -> [String] {
        var lines = [
            "    /// Delivers a built-in event that carries no payload to its implementers, in order, and returns the",
            "    /// combined result. An event with a payload has an entry point of its own, named after its hook; custom",
            "    /// events and messages are routed elsewhere.",
            "    package func deliver(",
            "        _ event: LifecycleEvent,",
            "        scope: DeliveryScope,",
            "        observer: DeliveryObserver?,",
            "        from start: Int,",
            "        supervisor: (any DeliverySupervisor)?",
            "    ) async -> EventOutcome<Bool> {",
            "        let context = self.context",
            "        switch event.kind {",
        ]
        for event in events where event.payload.isEmpty {
            lines.append("        case .builtin(.\(event.name)):")
            lines += fanOut(event, of: "event", scope: "scope", indent: "            ")
        }
        let elsewhere = events.filter { !$0.payload.isEmpty }.map { ".builtin(.\($0.name))" } + [".custom", ".message"]
        lines += [
            "        case \(elsewhere.joined(separator: ", ")):",
            "            return unanswered(event)",
            "        }",
            "    }",
        ]
        return lines
    }

    /// The entry point of an event with a payload, named after its hook: `open(_:observer:from:supervisor:)`.
    private static func entryPoint(_ event: EventDefinition) -> [String] {
        var lines = [
            "    /// Delivers ``LifecycleEvent/\(event.name)`` with its payload to every implementer, in order, and returns",
            "    /// the combined result.",
            "    package func \(event.hook)(",
        ]
        lines += event.payload.map { "        \($0.label) \($0.name): \($0.type)," }
        lines += [
            "        observer: DeliveryObserver?,",
            "        from start: Int,",
            "        supervisor: (any DeliverySupervisor)?",
            "    ) async -> EventOutcome<Bool> {",
            "        let context = self.context",
        ]
        lines += fanOut(event, of: ".\(event.name)", scope: ".all", indent: "        ")
        lines.append("    }")
        return lines
    }

    /// `return await implementers.<event>.fanOut(…)`, with the call of the hook for each form: through the
    /// deprecated synchronous protocol, as a synchronous function, and awaited.
    private static func fanOut(
        _ event: EventDefinition,
        of value: String,
        scope: String,
        indent: String
    ) -> [String] {
        var lines = [
            "\(indent)return await implementers.\(event.name).fanOut(",
            "\(indent)    \(value),",
            "\(indent)    scope: \(scope),",
            "\(indent)    observer: observer,",
            "\(indent)    from: start,",
            "\(indent)    supervisor: supervisor,",
        ]
        let call = event.hookCall(on: "$0")
        lines += syncCall(event.syncProtocol == nil ? nil : call, label: "sync", answers: event.answers, indent: indent)
        if event.hasSyncForm {
            lines += syncCall(
                event.functionCall(on: "$0.function"),
                label: "function",
                answers: event.answers,
                indent: indent
            )
        } else {
            lines.append("\(indent)    function: NoFunction.noHook,")
        }
        lines += ["\(indent)    async: {", "\(indent)        try await \(call)"]
        if !event.answers { lines.append("\(indent)        return false") }
        lines += ["\(indent)    }", "\(indent))"]
        return lines
    }

    /// The argument `label: { try <call> }` of a fan-out, returning `false` for an event without a result, or
    /// `Never.noSyncHook` when there is no such hook to call.
    private static func syncCall(_ call: String?, label: String, answers: Bool, indent: String) -> [String] {
        guard let call else { return ["\(indent)    \(label): Never.noSyncHook,"] }
        if answers { return ["\(indent)    \(label): { try \(call) },"] }
        return [
            "\(indent)    \(label): {",
            "\(indent)        try \(call)",
            "\(indent)        return false",
            "\(indent)    },",
        ]
    }
}
