import Foundation
import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import SyntheticModules

// The messages rows: a message without reply sent to one receiver, N times (checked, and through a
// channel resolved once), against a call through an existential; and broadcast to N receivers, against an index loop over existentials and
// NotificationCenter. Every handler, method and observer does the same work: `HookTally.tick()`.

/// N synchronous sends of ``Tick`` to receiver 0, from a synchronous function:
/// `sendSynchronously(_:to:)`. Returns how many sends threw.
@inline(never)
func sendToOne(_ messenger: Messenger, _ count: Int) -> Int {
    var failures = 0
    for _ in 0..<count {
        do {
            try messenger.sendSynchronously(Tick(), to: NumberedReceiver<Zero>.self)
        } catch {
            failures += 1
        }
    }
    return failures
}

/// N awaited sends of ``Tick`` to receiver 0: `send(_:to:)`, `async`, whose receiver's handler
/// is synchronous. Returns how many sends threw.
@inline(never)
func sendToOneAsync(_ messenger: Messenger, _ count: Int) async -> Int {
    var failures = 0
    for _ in 0..<count {
        do {
            try await messenger.send(Tick(), to: NumberedReceiver<Zero>.self)
        } catch {
            failures += 1
        }
    }
    return failures
}

/// N synchronous sends of ``Tick`` to receiver 0 through a channel resolved once:
/// `channel.sendSynchronously(_:)`. Returns how many sends threw.
@inline(never)
func sendThroughChannel(_ channel: MessageChannel<Tick>, _ count: Int) -> Int {
    var failures = 0
    for _ in 0..<count {
        do {
            try channel.sendSynchronously(Tick())
        } catch {
            failures += 1
        }
    }
    return failures
}

/// N awaited sends of ``Tick`` to receiver 0 through a channel resolved once: `channel.send(_:)`, `async`,
/// whose receiver's handler is synchronous. Returns how many sends threw.
@inline(never)
func sendThroughChannelAsync(_ channel: MessageChannel<Tick>, _ count: Int) async -> Int {
    var failures = 0
    for _ in 0..<count {
        do {
            try await channel.send(Tick())
        } catch {
            failures += 1
        }
    }
    return failures
}

/// The hand-written twin of ``sendToOne(_:_:)``: N calls of a non-inlined method through an existential.
@inline(never)
func callThroughExistential(_ receiver: any TickReceiving, _ count: Int) {
    for _ in 0..<count { receiver.receiveTick(Tick()) }
}

/// One synchronous broadcast of ``Tick`` to every receiver; returns how many handled it, or -1 if it threw.
@inline(never)
func broadcastTick(_ messenger: Messenger) -> Int {
    do {
        return try messenger.broadcastSynchronously(Tick())
    } catch {
        return -1
    }
}

/// The hand-written twin of ``broadcastTick(_:)``: a witness-table call per receiver, by index.
@inline(never)
func existentialTickFanOut(_ receivers: [any TickReceiving]) {
    for index in receivers.indices { receivers[index].receiveTick(Tick()) }
}

extension Notification.Name {
    /// The message the NotificationCenter baseline of the messages rows posts.
    static let benchmarkMessage = Notification.Name("ModuleLifecycleBenchmark.message")
}

/// The messages rows for N receivers. The host is built here and launched by the first repetition,
/// outside the measured region; it has no time limits and no journal.
func messageCases(_ n: Int) -> [BenchCase] {
    let context = LifecycleContext()
    let types = Array(SyntheticCatalog.receivers.prefix(n))
    let host: ApplicationHost
    do {
        host = try ApplicationHost(
            manifest: ModuleManifest(name: "receivers", types).withMessages(),
            launchOptions: LaunchOptions(),
            configuration: ApplicationHost.Configuration(hookBudget: nil, terminateDeadline: nil, journalCapacity: 0)
        )
    } catch {
        fatalError("messages: the host of \(n) receivers did not build: \(error)")
    }
    func launched() async -> Messenger {
        if host.state == .notRunning {
            do {
                try await host.launch()
            } catch {
                fatalError("messages: the host of \(n) receivers did not launch: \(error)")
            }
        }
        return host.context.messages
    }
    /// The channel to receiver 0, resolved once, after the launch.
    func channel() async -> MessageChannel<Tick> {
        do {
            return try await launched().channel(for: Tick.self, to: NumberedReceiver<Zero>.self)
        } catch {
            fatalError("messages: the channel to receiver 0 did not resolve: \(error)")
        }
    }
    // The baselines call separate instances of the same types, in the bus's delivery order (manifest
    // order: every receiver has the same priority and no dependencies).
    let receivers: [any TickReceiving] = types.map { type in
        do {
            return try type.init(context: context) as! any TickReceiving
        } catch {
            fatalError("\(type).init(context:) threw \(error)")
        }
    }
    let one: any TickReceiving = NumberedReceiver<Zero>(context: context)
    let center = NotificationCenter()
    for receiver in receivers {
        _ = center.addObserver(forName: .benchmarkMessage, object: nil, queue: nil) { _ in
            receiver.receiveTick(Tick())
        }
    }

    func check(failures: Int, _ system: System) {
        if failures != 0 { fatalError("\(system.id): \(failures) of \(n) sends threw") }
    }
    func check(handled: Int, _ system: System) {
        if handled != n { fatalError("\(system.id) reached \(handled) receivers, expected \(n)") }
    }

    return [
        BenchCase(system: .messagesSend, modules: n, expectedTicks: n) { meter, iterations in
            let messenger = await launched()
            meter.begin()
            for _ in 0..<iterations { check(failures: sendToOne(messenger, n), .messagesSend) }
            meter.end()
        },
        BenchCase(system: .messagesSendAsync, modules: n, expectedTicks: n) { meter, iterations in
            let messenger = await launched()
            meter.begin()
            for _ in 0..<iterations { check(failures: await sendToOneAsync(messenger, n), .messagesSendAsync) }
            meter.end()
        },
        BenchCase(system: .messagesChannelSend, modules: n, expectedTicks: n) { meter, iterations in
            let channel = await channel()
            meter.begin()
            for _ in 0..<iterations { check(failures: sendThroughChannel(channel, n), .messagesChannelSend) }
            meter.end()
        },
        BenchCase(system: .messagesChannelSendAsync, modules: n, expectedTicks: n) { meter, iterations in
            let channel = await channel()
            meter.begin()
            for _ in 0..<iterations {
                check(failures: await sendThroughChannelAsync(channel, n), .messagesChannelSendAsync)
            }
            meter.end()
        },
        BenchCase(system: .messagesExistentialCall, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { callThroughExistential(one, n) }
            meter.end()
        },
        BenchCase(system: .messagesBroadcast, modules: n, expectedTicks: n) { meter, iterations in
            let messenger = await launched()
            meter.begin()
            for _ in 0..<iterations { check(handled: broadcastTick(messenger), .messagesBroadcast) }
            meter.end()
        },
        BenchCase(system: .messagesExistentialLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { existentialTickFanOut(receivers) }
            meter.end()
        },
        BenchCase(system: .messagesNotificationCenter, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { center.post(name: .benchmarkMessage, object: nil) }
            meter.end()
        },
    ]
}
