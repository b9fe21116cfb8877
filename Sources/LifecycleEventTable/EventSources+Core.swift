extension EventSources {
    // MARK: - LifecycleCore/Modules/Hooks.swift

    /// The capability protocols: one per event, and its synchronous form where the event has one.
    static func hooks(_ events: [EventDefinition]) -> GeneratedSource {
        var lines = foundationImport(events, access: "public")
        if !lines.isEmpty { lines.append("") }
        lines += [
            "// One small capability protocol per event. A participant (a module or the program's delegate) adopts",
            "// exactly the protocols of the events it handles; the delegate proxy learns which participants handle an",
            "// event from these conformances, once, when it is built, without calling any hook.",
            "//",
            "// Every hook is `async throws`. A plain synchronous function satisfies an `async` requirement, so a module",
            "// whose hook does not await writes an ordinary function. A hook that throws does not stop delivery to the",
            "// other participants; see `ApplicationHost` for how failures are reported.",
            "//",
            "// An event may also have a synchronous form, `Sync…`, which refines the asynchronous protocol with a",
            "// non-`async` requirement of the same name. A participant that adopts it is called without an `await`: the",
            "// proxy walks a run of synchronous implementers as a plain loop, at the cost of a direct call. Delivery",
            "// order and results do not depend on the form.",
        ]
        for event in events {
            let returns = event.answers ? " -> Bool" : ""
            let role = event.role.map { ", \($0)" } ?? ""
            let reverse = event.direction == .reverse ? " Delivered in reverse order." : ""
            lines += ["", "/// Handles ``LifecycleEvent/\(event.name)``\(role).\(reverse)"]
            lines.append("public protocol \(event.capability): Sendable {")
            lines += documentation(event.hookDocumentation, indent: "    ")
            lines += ["    func \(event.hook)(\(event.hookParameters)) async throws\(returns)", "}"]
            guard let sync = event.syncCapability else { continue }
            let capability = event.capability
            lines += [
                "",
                "/// The synchronous form of ``\(capability)``: the same hook, called without an `await`.",
                "///",
                "/// Adopt it instead of ``\(capability)`` when the hook never suspends; the one non-`async` function "
                    + "satisfies both",
                "/// requirements. The proxy calls it directly, in the same delivery order and with the same result rule.",
                "/// Swift prefers the `async` overload inside `async` code, so to call it yourself from there, go through",
                "/// a synchronous function or closure.",
                "public protocol \(sync): \(capability) {",
                "    /// ``\(capability)/\(event.hookSelector)``, without suspending.",
                "    func \(event.hook)(\(event.hookParameters)) throws\(returns)",
                "}",
            ]
        }
        return file("Sources/LifecycleCore/Modules/Hooks.swift", lines)
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
        var lines = [
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
            let handles = "    /// The participant handles ``LifecycleEvent/\(name)`` through"
            lines += [
                "\(handles) ``\(event.capability)``.",
                "    public mutating func \(name)(_ hook: any \(event.capability)) {",
                "        builtins.\(name).append(hook, at: position)",
                "    }",
            ]
            if let sync = event.syncCapability {
                lines += [
                    "\(handles) ``\(sync)``, called without an `await`.",
                    "    public mutating func \(name)(sync hook: any \(sync)) {",
                    "        builtins.\(name).append(sync: hook, at: position)",
                    "    }",
                ]
            }
            lines.append("")
        }
        lines += [
            "    /// Adds the hooks of `participant` for every built-in event by asking the runtime whether it conforms to",
            "    /// each capability protocol: the asynchronous one first, then its synchronous refinement.",
            "    mutating func addBuiltins(casting participant: any Sendable) {",
        ]
        for event in events {
            lines.append("        if let hook = participant as? any \(event.capability) {")
            if let sync = event.syncCapability {
                lines += [
                    "            if let sync = participant as? any \(sync) {",
                    "                \(event.name)(sync: sync)",
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
