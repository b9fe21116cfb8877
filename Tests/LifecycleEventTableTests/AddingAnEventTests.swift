import LifecycleEventTable
import Testing

@testable import ModuleScanner

/// Issue 31, "one place per event", shown: a test event added as one row of the table, and every place that
/// handles events deriving it, with the files it touches counted.
@Suite("Adding an event")
struct AddingAnEventTests {
    /// The test event: a reverse event whose hook may be synchronous, with no payload and no result. A new
    /// event gets no deprecated `Sync…` protocol.
    static let beacon = EventDefinition(
        name: "didReceiveBeacon",
        capability: "DidReceiveBeacon",
        hook: "didReceiveBeacon",
        direction: .reverse,
        summary: "Sent when a test beacon arrives. Delivered in reverse order.",
        hookDocumentation: "Called when a test beacon arrives."
    )
    static let before = EventSources.files(for: EventTable.builtins)
    static let after = EventSources.files(for: EventTable.builtins + [beacon])

    /// The text `after` generates for the file at `path`.
    static func generated(_ path: String) -> String {
        after.first { $0.path == path }?.text ?? ""
    }

    @Test("A new event touches one file by hand, the table, and the four files the script generates from it")
    func filesTouched() {
        #expect(Self.after.map(\.path) == Self.before.map(\.path))
        let rewritten = zip(Self.before, Self.after).filter { $0.text != $1.text }.map(\.1.path)
        #expect(
            rewritten == [
                "Sources/LifecycleCore/Modules/Hooks.swift",
                "Sources/LifecycleCore/Events/LifecycleEvent+Builtin.swift",
                "Sources/LifecycleCore/Modules/ModuleHooks+Events.swift",
                "Sources/LifecycleProxy/DelegateProxy+Events.swift",
            ]
        )
        // By hand: the row, in Sources/LifecycleEventTable/EventTable.swift. Before the table, the same event was
        // written by hand into six source files in three targets and the plugin's scanner: Hooks.swift,
        // ModuleHooks.swift, LifecycleEvent.swift, DelegateProxy.swift, DelegateProxy+Delivering.swift and
        // CapabilityScan.swift. The scanner now reads the row itself, so it is not among the files rewritten.
        let touched = ["Sources/LifecycleEventTable/EventTable.swift"] + rewritten
        #expect(touched.count == 5)

        // The other events' code stays as it was: every file only gains lines.
        for (old, new) in zip(Self.before, Self.after) {
            var remaining = new.text.split(separator: "\n", omittingEmptySubsequences: false)[...]
            for line in old.text.split(separator: "\n", omittingEmptySubsequences: false) {
                guard let index = remaining.firstIndex(of: line) else {
                    Issue.record("\(new.path) lost or reordered `\(line)`")
                    break
                }
                remaining = remaining[(index + 1)...]
            }
        }
    }

    @Test("LifecycleCore derives the event's protocols, its LifecycleEvent and its ModuleHooks methods")
    func coreDerivesTheEvent() {
        let hooks = Self.generated("Sources/LifecycleCore/Modules/Hooks.swift")
        #expect(
            hooks.contains(
                """
                /// Handles ``LifecycleEvent/didReceiveBeacon``. Delivered in reverse order.
                public protocol DidReceiveBeacon: Sendable {
                    /// Called when a test beacon arrives.
                    func didReceiveBeacon(_ context: LifecycleContext) async throws
                }
                """
            )
        )
        // A registered synchronous function is kept in an object of the event's, which is not API; a new event
        // has no deprecated `Sync…` protocol.
        #expect(
            hooks.contains(
                """
                package final class DidReceiveBeaconFunction: Sendable {
                    package let function: @Sendable (LifecycleContext) throws -> Void
                """
            )
        )
        #expect(!hooks.contains("SyncDidReceiveBeacon"))

        let event = Self.generated("Sources/LifecycleCore/Events/LifecycleEvent+Builtin.swift")
        #expect(event.contains("        case didReceiveBeacon\n"))
        #expect(event.contains("            case .didReceiveBeacon: .reverse\n"))
        #expect(event.contains("            case .didReceiveBeacon: .none\n"))
        #expect(event.contains("    public static let didReceiveBeacon = Self(.didReceiveBeacon)\n"))

        let moduleHooks = Self.generated("Sources/LifecycleCore/Modules/ModuleHooks+Events.swift")
        #expect(
            moduleHooks.contains(
                "    package var didReceiveBeacon = HookList<any DidReceiveBeacon, Never, DidReceiveBeaconFunction>()"
            )
        )
        #expect(moduleHooks.contains("    public mutating func didReceiveBeacon(_ hook: any DidReceiveBeacon) {"))
        #expect(
            moduleHooks.contains(
                """
                    public mutating func didReceiveBeacon(
                        _ participant: some DidReceiveBeacon,
                        synchronously call: @escaping @Sendable (LifecycleContext) throws -> Void
                    ) {
                        builtins.didReceiveBeacon.append(function: DidReceiveBeaconFunction(call), at: position)
                    }
                """
            )
        )
        #expect(!moduleHooks.contains("didReceiveBeacon(sync hook:"))
        #expect(moduleHooks.contains("        if let hook = participant as? any DidReceiveBeacon {\n"))
        #expect(moduleHooks.contains("            didReceiveBeacon.shape(\"didReceiveBeacon\", at: position),"))
    }

    @Test("The proxy derives the event's implementer list, in its direction, and its fan-out")
    func proxyDerivesTheEvent() {
        let proxy = Self.generated("Sources/LifecycleProxy/DelegateProxy+Events.swift")
        let list = "    let didReceiveBeacon: Implementers<any DidReceiveBeacon, Never, DidReceiveBeaconFunction>"
        #expect(proxy.contains(list))
        #expect(
            proxy.contains("        didReceiveBeacon = Implementers(lists.didReceiveBeacon, participants, .reverse)")
        )
        #expect(proxy.contains("        case .didReceiveBeacon: didReceiveBeacon.participants"))
        #expect(
            proxy.contains(
                """
                        case .builtin(.didReceiveBeacon):
                            return await implementers.didReceiveBeacon.fanOut(
                                event,
                                scope: scope,
                                observer: observer,
                                from: start,
                                supervisor: supervisor,
                                calls: DidReceiveBeaconCalls(context: context)
                            )
                """
            )
        )
        #expect(
            proxy.contains(
                """
                /// How the proxy calls ``LifecycleEvent/didReceiveBeacon``'s hooks, in each form.
                struct DidReceiveBeaconCalls: HookCalls {
                    let context: LifecycleContext

                    func callSync(_ hook: Never) -> Bool {}

                    func callFunction(_ function: DidReceiveBeaconFunction) throws -> Bool {
                        try function.function(context)
                        return false
                    }

                    func call(_ hook: any DidReceiveBeacon) async throws -> Bool {
                        try await hook.didReceiveBeacon(context)
                        return false
                    }
                }
                """
            )
        )
    }

    @Test("The scanner needs only the row: a module adopting the event is listed with its hook")
    func scannerDerivesTheEvent() {
        let source = """
            struct BeaconModule: LifecycleModule, DidReceiveBeacon {
                init(context: LifecycleContext) {}
                func didReceiveBeacon(_ context: LifecycleContext) {}
            }
            """
        // Without the row, the protocol is unknown: the host would ask the runtime about the module.
        let without = manifest(for: source)
        #expect(without.contains("modules.append(DeclaredModule(BeaconModule.self))  // conformances read at run time"))
        #expect(hookCalls(in: without).isEmpty)
        // With it, the capability table hands the module to the event's ModuleHooks method, with a closure that
        // calls its synchronous hook.
        let with = manifest(for: source, events: CapabilityScan.events(from: EventTable.builtins + [Self.beacon]))
        #expect(
            hookCalls(in: with) == ["hooks.didReceiveBeacon(module, synchronously: { module.didReceiveBeacon($0) })"]
        )
    }

    @Test("An event with a payload and a result gets an entry point named after its hook")
    func payloadEventGetsAnEntryPoint() {
        var ping = Self.beacon
        ping.name = "ping"
        ping.capability = "Ping"
        ping.hook = "ping"
        ping.payload = [EventDefinition.Parameter("_", "message", "String")]
        ping.result = .anyTrue(whenUnanswered: false)
        let files = EventSources.files(for: EventTable.builtins + [ping])
        let hooks = files.first { $0.path.hasSuffix("/Hooks.swift") }?.text ?? ""
        let proxy = files.first { $0.path.hasSuffix("/DelegateProxy+Events.swift") }?.text ?? ""
        #expect(hooks.contains("    func ping(_ message: String, context: LifecycleContext) async throws -> Bool\n"))
        #expect(hooks.contains("    package let function: @Sendable (String, LifecycleContext) throws -> Bool\n"))
        let moduleHooks = files.first { $0.path.hasSuffix("/ModuleHooks+Events.swift") }?.text ?? ""
        #expect(
            moduleHooks.contains(
                "        synchronously call: @escaping @Sendable (String, LifecycleContext) throws -> Bool\n"
            )
        )
        #expect(proxy.contains("        case .builtin(.openURL), .builtin(.ping), .custom, .message:\n"))
        #expect(
            proxy.contains("    package func ping(\n        _ message: String,\n        observer: DeliveryObserver?,")
        )
        #expect(proxy.contains("            calls: PingCalls(message: message, context: context)\n"))
        #expect(proxy.contains("    let message: String\n    let context: LifecycleContext\n"))
        #expect(proxy.contains("        try function.function(message, context)\n"))
    }
}
