extension EventSources {
    // MARK: - LifecycleProxy/DelegateProxy+Events.swift

    /// `BuiltinImplementers`, each event's implementers in delivery order, and the proxy's fan-out of each
    /// event: one direct call of the hook per implementer, through the event's `HookCalls`, for which
    /// `Implementers.fanOut` is specialized.
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
        for event in events {
            lines += [""] + calls(event)
        }
        return file("Sources/LifecycleProxy/DelegateProxy+Events.swift", lines)
    }

    /// The calls of one event's hooks in each form, with its payload and context: `DidBecomeActiveCalls`.
    private static func calls(_ event: EventDefinition) -> [String] {
        let name = event.capability + "Calls"
        let types = hookTypes(event)
        var lines = [
            "/// How the proxy calls ``LifecycleEvent/\(event.name)``'s hooks, in each form.",
            "struct \(name): HookCalls {",
        ]
        lines += event.payload.map { "    let \($0.name): \($0.type)" }
        lines += ["    let context: LifecycleContext", ""]
        func body(_ call: String) -> [String] {
            event.answers ? ["        try \(call)"] : ["        try \(call)", "        return false"]
        }
        if let sync = event.syncProtocol {
            lines.append("    func callSync(_ hook: any \(sync)) throws -> Bool {")
            lines += body(event.hookCall(on: "hook")) + ["    }", ""]
        } else {
            lines += ["    func callSync(_ hook: Never) -> Bool {}", ""]
        }
        if let function = event.functionClass {
            lines.append("    func callFunction(_ function: \(function)) throws -> Bool {")
            lines += body(event.functionCall(on: "function.function")) + ["    }", ""]
        } else {
            lines += [
                "    func callFunction(_ function: \(types[2])) -> Bool {",
                "        fatalError(\"\\(LifecycleEvent.\(event.name)) has no synchronous form\")",
                "    }",
                "",
            ]
        }
        lines.append("    func call(_ hook: \(types[0])) async throws -> Bool {")
        lines +=
            (event.answers
                ? ["        try await \(event.hookCall(on: "hook"))"]
                : ["        try await \(event.hookCall(on: "hook"))", "        return false"]) + ["    }", "}"]
        return lines
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

    /// `return await implementers.<event>.fanOut(…)`, with the event's `…Calls`: how its hooks are called in
    /// each form.
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
        let payload = event.payload.map { "\($0.name): \($0.name), " }.joined()
        lines += ["\(indent)    calls: \(event.capability)Calls(\(payload)context: context)", "\(indent))"]
        return lines
    }
}
