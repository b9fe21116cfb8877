extension EventSources {
    // MARK: - LifecycleCore/Modules/Hooks.swift

    /// The capability protocols, one per event, their synchronous forms, and the deprecated aliases the table
    /// keeps.
    static func hooks(_ events: [EventDefinition]) -> GeneratedSource {
        var lines = foundationImport(events, access: "public")
        if !lines.isEmpty { lines.append("") }
        lines += [
            "// One small capability protocol per event. A participant (a module or the program's delegate) adopts",
            "// exactly the protocols of the events it handles; the delegate proxy learns which participants handle an",
            "// event from these conformances, once, when it is built, without calling any hook.",
            "//",
            "// Every hook is `async throws`. A plain synchronous function satisfies an `async` requirement, so a module",
            "// whose hook does not await writes an ordinary function, and the discovery plugin, which sees that it is",
            "// not `async`, registers it to be called without an `await` (`ModuleHooks.<event>(_:synchronously:)`): the",
            "// proxy walks a run of synchronous hooks as a plain loop. A hook that throws does not stop delivery to",
            "// the other participants; see `ApplicationHost` for how failures are reported.",
            "//",
            "// A registered synchronous function is kept in a `…Function` object, which the proxy calls through",
            "// without reference counting. The events that had a synchronous twin protocol keep it for one release,",
            "// deprecated: `Sync…` is an alias of `_Sync…`, which refines the asynchronous protocol with a non-`async`",
            "// requirement of the same name and is not API. The proxy still calls a participant that adopts it",
            "// without an `await`, also when the host learns its conformances at run time.",
        ]
        for event in events {
            let returns = event.answers ? " -> Bool" : ""
            let role = event.role.map { ", \($0)" } ?? ""
            let reverse = event.direction == .reverse ? " Delivered in reverse order." : ""
            lines += ["", "/// Handles ``LifecycleEvent/\(event.name)``\(role).\(reverse)"]
            lines.append("public protocol \(event.capability): Sendable {")
            lines += documentation(event.hookDocumentation, indent: "    ")
            lines += ["    func \(event.hook)(\(event.hookParameters)) async throws\(returns)", "}"]
            let capability = event.capability
            if let function = event.functionClass {
                lines += [
                    "",
                    "/// A synchronous `\(event.hookSelector)` that a capability table registered",
                    "/// (`ModuleHooks.\(event.name)(_:synchronously:)`): the function that calls it, in an object the proxy",
                    "/// calls through without reference counting.",
                    "package final class \(function): Sendable {",
                    "    package let function: \(event.functionType)",
                    "",
                    "    init(_ function: @escaping \(event.functionType)) {",
                    "        self.function = function",
                    "    }",
                    "}",
                ]
            }
            guard let alias = event.syncCapability, let sync = event.syncProtocol else { continue }
            lines += [
                "",
                "/// The synchronous requirement behind the deprecated ``\(alias)``, kept for one release: not API.",
                "/// Adopt ``\(capability)`` and write the hook without `async` instead.",
                "public protocol \(sync): \(capability) {",
                "    /// ``\(capability)/\(event.hookSelector)``, without suspending.",
                "    func \(event.hook)(\(event.hookParameters)) throws\(returns)",
                "}",
                "",
                "/// Deprecated: adopt ``\(capability)`` and write `\(event.hookSelector)` without `async`.",
                "///",
                "/// The discovery plugin reads that the function is not `async`, and the proxy calls a discovered module's",
                "/// synchronous hook without an `await`, as it called this protocol's requirement. A module listed by hand",
                "/// (its conformances read at run time) is awaited instead, ~25 ns more per call. Kept for one release.",
            ]
            lines += deprecated("adopt \(capability) and write \(event.hookSelector) without async", indent: "")
            lines.append("public typealias \(alias) = \(sync)")
        }
        return file("Sources/LifecycleCore/Modules/Hooks.swift", lines)
    }

    /// `@available(*, deprecated, message: "<message>")`, on one line when it fits, else as `swift format` breaks
    /// it (a string literal is never broken).
    static func deprecated(_ message: String, indent: String) -> [String] {
        let line = "\(indent)@available(*, deprecated, message: \"\(message)\")"
        guard line.count > lineLength else { return [line] }
        return [
            "\(indent)@available(", "\(indent)    *,", "\(indent)    deprecated,",
            "\(indent)    message: \"\(message)\"", "\(indent))",
        ]
    }

    // MARK: - LifecycleCore/Events/LifecycleEvent+Builtin.swift

    /// `LifecycleEvent.Builtin`, with each event's direction and result rule, and the public `LifecycleEvent`
    /// of each.
    static func lifecycleEvent(_ events: [EventDefinition]) -> GeneratedSource {
        var lines = [
            "extension LifecycleEvent {",
            "    /// The built-in events, one case per row of the event table, in the order a full lifecycle emits them.",
            "    package enum Builtin: UInt8, Hashable, Sendable, CaseIterable {",
        ]
        lines += events.map { "        case \($0.name)" }
        lines += [
            "",
            "        /// The order in which participants receive the event.",
            "        package var direction: DeliveryDirection {",
            "            switch self {",
        ]
        lines += events.map { "            case .\($0.name): .\($0.direction.rawValue)" }
        lines += [
            "            }",
            "        }",
            "",
            "        /// How the results of the participants combine into the event's result.",
            "        package var resultRule: ResultRule {",
            "            switch self {",
        ]
        for event in events {
            switch event.result {
            case .none: lines.append("            case .\(event.name): .none")
            case .anyTrue(let fallback):
                lines.append("            case .\(event.name): .anyTrue(whenUnanswered: \(fallback))")
            }
        }
        lines += ["            }", "        }", "    }"]
        for event in events {
            lines.append("")
            lines += documentation(event.summary, indent: "    ")
            lines.append("    public static let \(event.name) = Self(.\(event.name))")
        }
        lines.append("}")
        return file("Sources/LifecycleCore/Events/LifecycleEvent+Builtin.swift", lines)
    }

    // MARK: - LifecycleCore/Modules/ModuleHooks+Events.swift

    /// `BuiltinHookLists`, one `HookList` per event, and `ModuleHooks`' registration methods and casts.
    static func moduleHooks(_ events: [EventDefinition]) -> GeneratedSource {
        var lines = foundationImport(events, access: "public")
        if !lines.isEmpty { lines.append("") }
        lines += [
            "/// The implementers of each built-in event gathered so far, one ``HookList`` per event: what",
            "/// ``ModuleHooks`` fills and the delegate proxy orders for delivery.",
            "package struct BuiltinHookLists: Sendable {",
        ]
        for event in events {
            lines += generic("    package var \(event.name) = ", "HookList", hookTypes(event), "()")
        }
        lines += [
            "",
            "    /// What the participant at `position` handles, and in which form, one line per event:",
            "    /// `\"didBecomeActive (sync)\"`.",
            "    func shape(at position: Int) -> [String] {",
            "        [",
        ]
        lines += events.map { "            \($0.name).shape(\"\($0.name)\", at: position)," }
        lines += ["        ]", "        .compactMap { $0 }", "    }", "}", "", "extension ModuleHooks {"]
        for event in events {
            let name = event.name
            let handles = "    /// The participant handles ``LifecycleEvent/\(name)``"
            lines += [
                "\(handles) through ``\(event.capability)``.",
                "    public mutating func \(name)(_ hook: any \(event.capability)) {",
                "        builtins.\(name).append(hook, at: position)",
                "    }",
            ]
            if event.hasSyncForm {
                lines += [
                    "",
                    "\(handles) with a synchronous function, called",
                    "    /// without an `await`: `call` calls the participant's own `\(event.hookSelector)`, so the compiler",
                    "    /// checks that it is synchronous.",
                    "    public mutating func \(name)(",
                    "        _ participant: some \(event.capability),",
                    "        synchronously call: @escaping \(event.functionType)",
                    "    ) {",
                    "        builtins.\(name).append(function: \(event.functionClass ?? "")(call), at: position)",
                    "    }",
                ]
            }
            if let alias = event.syncCapability {
                lines += ["", "\(handles) through the deprecated", "    /// `\(alias)`, called without an `await`."]
                lines += deprecated(
                    "use \(name)(_:synchronously:), with a closure that calls the module's hook",
                    indent: "    "
                )
                lines += [
                    "    public mutating func \(name)(sync hook: any \(alias)) {",
                    "        builtins.\(name).append(sync: hook, at: position)",
                    "    }",
                ]
            }
            lines.append("")
        }
        lines += [
            "    /// Adds the hooks of `participant` for every built-in event by asking the runtime whether it conforms to",
            "    /// each capability protocol: the asynchronous one first, then the deprecated synchronous one that refines",
            "    /// it, the one way the runtime can tell that a hook is synchronous.",
            "    mutating func addBuiltins(casting participant: any Sendable) {",
        ]
        for event in events {
            lines.append("        if let hook = participant as? any \(event.capability) {")
            if let sync = event.syncProtocol {
                lines += [
                    "            if let sync = participant as? any \(sync) {",
                    "                builtins.\(event.name).append(sync: sync, at: position)",
                    "            } else {",
                    "                \(event.name)(hook)",
                    "            }",
                ]
            } else {
                lines.append("            \(event.name)(hook)")
            }
            lines.append("        }")
        }
        lines += ["    }", "}"]
        return file("Sources/LifecycleCore/Modules/ModuleHooks+Events.swift", lines)
    }
}
