import LifecycleCore
import LifecycleProxy
import Testing

struct Ping: CustomEvent {
    var id: Int
}

struct Ask: CustomEvent {
    typealias Result = Bool
    static let name = "ask"
}

enum AskAnswers: LaunchOptionKey {
    static let defaultValue: [String: Bool] = [:]
}

struct AskerA: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .high
    let answer: Bool
    init(context: LifecycleContext) { answer = context.launchOptions[AskAnswers.self]["A"] ?? false }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ask.self) { module, _, context in
            context.launchOptions[ScriptKey.self].journal.record("ask AskerA")
            return module.answer
        }
    }
}

struct AskerB: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .normal
    let answer: Bool
    init(context: LifecycleContext) { answer = context.launchOptions[AskAnswers.self]["B"] ?? false }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ask.self) { module, _, context in
            context.launchOptions[ScriptKey.self].journal.record("ask AskerB")
            return module.answer
        }
        handlers.on(Ping.self) { _, ping, context in
            context.launchOptions[ScriptKey.self].journal.record("ping AskerB \(ping.id)")
        }
    }
}

/// Answers `Ask` from an `async` handler, between AskerA's and AskerB's synchronous ones.
struct AsyncAsker: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .init(rawValue: ModulePriority.normal.rawValue + 1)
    init(context: LifecycleContext) {}

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ask.self) { _, _, context in
            await Task.yield()
            context.launchOptions[ScriptKey.self].journal.record("ask AsyncAsker")
            return true
        }
        handlers.on(Ping.self) { _, ping, context in
            await Task.yield()
            context.launchOptions[ScriptKey.self].journal.record("ping AsyncAsker \(ping.id)")
        }
    }
}

struct DoubleRegistration: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ping.self) { _, _, _ in }
        handlers.on(Ping.self) { _, _, _ in }
    }
}

@Suite("Custom events")
struct CustomEventTests {
    func host(answers: [String: Bool], script: Script) throws -> ApplicationHost {
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        options[AskAnswers.self] = answers
        return try ApplicationHost(
            manifest: ModuleManifest([AskerB.self, Silent.self, AskerA.self]),
            launchOptions: options
        )
    }

    @Test(
        "A Bool custom event is OR-combined over its handlers, in priority order",
        arguments: ResultCombiningTests.truthTable
    )
    func boolCustomEventIsOrCombined(first: Bool, second: Bool, combined: Bool) async throws {
        let script = Script()
        let host = try host(answers: ["A": first, "B": second], script: script)
        try await host.launch()
        #expect(try await host.send(Ask()) == combined)
        #expect(script.journal.entries == ["ask AskerA", "ask AskerB"])
        #expect(host.plan(for: LifecycleEvent(custom: Ask.self)).map { shortName($0.name) } == ["AskerA", "AskerB"])
    }

    @Test("A custom event with a payload reaches only its handlers; one nobody handles returns its default")
    func payloadAndUnhandledDefault() async throws {
        let script = Script()
        let host = try host(answers: [:], script: script)
        try await host.launch()
        try await host.send(Ping(id: 7))
        #expect(script.journal.entries == ["ping AskerB 7"])
        #expect(host.customEvents.map(\.name) == ["ask", "Ping"])

        let proxy = try makeProxy([Silent.self])
        let outcome = await proxy.deliverDirectly(Ask())
        #expect(outcome.result == false)
        #expect(outcome.delivered == 0)
        #expect(proxy.responds(to: LifecycleEvent(custom: Ask.self)) == false)
    }

    @Test("Custom events follow the state machine: refused before launch, with nothing delivered")
    func customEventBeforeLaunchIsRefused() async throws {
        let script = Script()
        let host = try host(answers: [:], script: script)
        let error = await #expect(throws: LifecycleError.self) { try await host.send(Ping(id: 1)) }
        #expect(error?.code == .invalidTransition)
        #expect(error?.description.contains("send(Ping)") == true)
        #expect(script.journal.entries.isEmpty)
    }

    @Test("Two handlers for one event in one participant is a manifest error naming the module and event")
    func duplicateHandlerIsRejected() throws {
        let error = #expect(throws: ManifestError.self) { try makeProxy([DoubleRegistration.self]) }
        #expect(error?.code == .duplicateCustomEventHandler)
        #expect(error?.modules == [DoubleRegistration.moduleName])
        #expect(error?.description.contains("`Ping`") == true)
    }

    @Test("A handler without `await` registers the synchronous form, one with `await` the async form")
    func handlerFormFollowsTheClosure() throws {
        func forms<P: CustomEventHandling & LifecycleModule, E: CustomEvent>(
            _ type: P.Type,
            _ event: E.Type
        ) throws
            -> [String]
        {
            var handlers = CustomEventHandlers<P>()
            P.registerCustomEventHandlers(&handlers)
            var table = CustomRouteTable()
            let instance = try P(context: LifecycleContext())
            for registration in handlers.registrations where registration.event == LifecycleEvent(custom: E.self) {
                registration.bind(instance, Participant(type: P.self, priority: P.priority, id: 1), &table)
            }
            let route = try #require(table.build().routes[ObjectIdentifier(E.self)] as? CustomRoute<E>)
            return route.handlers.map {
                switch $0 {
                case .sync: "sync"
                case .async: "async"
                }
            }
        }
        #expect(try forms(AskerA.self, Ask.self) == ["sync"])
        #expect(try forms(AskerB.self, Ping.self) == ["sync"], "a Void handler without await is synchronous too")
        #expect(try forms(AsyncAsker.self, Ask.self) == ["async"])
        #expect(try forms(AsyncAsker.self, Ping.self) == ["async"])
    }

    @Test("Synchronous and async handlers of one event are delivered in one order and OR-combined")
    func mixedHandlerFormsKeepTheOrder() async throws {
        let script = Script()
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        options[AskAnswers.self] = ["A": false, "B": false]
        let host = try ApplicationHost(
            manifest: ModuleManifest([AskerB.self, AsyncAsker.self, AskerA.self]),
            launchOptions: options
        )
        try await host.launch()
        #expect(try await host.send(Ask()) == true, "AsyncAsker's true is combined with the synchronous falses")
        try await host.send(Ping(id: 3))
        #expect(
            script.journal.entries == [
                "ask AskerA", "ask AsyncAsker", "ask AskerB", "ping AsyncAsker 3", "ping AskerB 3",
            ]
        )
    }
}
