import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleTesting
import Synchronization

/// What the fixtures' handlers did, in order, shared by every module of one host.
final class Recorder: Sendable {
    private let lines = Locked<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
    func count(_ line: String) -> Int { entries.filter { $0 == line }.count }
}

enum RecorderKey: LaunchOptionKey {
    static let defaultValue = Recorder()
}

extension LifecycleContext {
    var recorder: Recorder { launchOptions[RecorderKey.self] }
}

/// A host of `modules` with messages, and the recorder its handlers write to.
func messagingHost(
    _ modules: [any LifecycleModule.Type],
    journal: Int = 0,
    clock: VirtualClock? = nil
) throws -> (ApplicationHost, Recorder) {
    let recorder = Recorder()
    var options = LaunchOptions()
    options[RecorderKey.self] = recorder
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "Messages", modules).withMessages(),
        launchOptions: options,
        configuration: .init(
            clock: clock ?? ContinuousClock(),
            hookBudget: nil,
            terminateDeadline: nil,
            journalCapacity: journal
        )
    )
    return (host, recorder)
}

/// A launched host of `modules`.
func launchedHost(
    _ modules: [any LifecycleModule.Type],
    journal: Int = 0,
    clock: VirtualClock? = nil
) async throws -> (ApplicationHost, Recorder) {
    let (host, recorder) = try messagingHost(modules, journal: journal, clock: clock)
    try await host.launch()
    return (host, recorder)
}

func short(_ name: String) -> String { String(name.split(separator: ".").last ?? "") }

// MARK: - Messages

struct Ping: Message {
    var text: String
}

struct HowMany: Message {
    typealias Reply = Int
}

struct CanHandle: Message {
    typealias Reply = Bool
    var path: String
}

struct WhoOwns: Message {
    typealias Reply = String?
    var key: String
}

struct Slow: Message {
    typealias Reply = Int
}

struct Fail: Message {}

struct Hang: Message {
    typealias Reply = Int
}

struct Bounce: Message {
    var hops: Int
}

// MARK: - Receivers

protocol Auditing {}

/// Receives most messages; high priority.
struct Alpha: MessageReceiving, Auditing {
    static let priority: ModulePriority = .high
    static var messageTags: [MessageTag] { ["cache"] }
    let recorder: Recorder

    init(context: LifecycleContext) { recorder = context.recorder }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { module, message, context in
            module.recorder.record(
                "Alpha got \(message.text) from \(context.sender.map { short($0.name) } ?? "nobody")"
            )
        }
        handlers.on(HowMany.self) { _, _, _ in 1 }
        handlers.on(Hang.self) { module, _, _ in
            module.recorder.record("Alpha answered Hang")
            return 1
        }
        handlers.on(CanHandle.self) { module, message, _ in
            module.recorder.record("Alpha judged \(message.path)")
            return message.path == "/alpha"
        }
        handlers.on(WhoOwns.self) { _, message, _ in message.key == "a" ? "Alpha" : nil }
        handlers.on(Fail.self) { module, _, _ in
            module.recorder.record("Alpha failed")
            throw FixtureError(name: "Alpha")
        }
        handlers.on(Bounce.self) { module, message, context in
            module.recorder.record("Alpha bounce \(message.hops)")
            if message.hops > 0 {
                try context.messages.sendSynchronously(Bounce(hops: message.hops - 1), to: Beta.self)
            }
        }
    }
}

/// Depends on Gamma, normal priority; receives some messages, tagged "cache".
struct Beta: MessageReceiving, DependentModule {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [Gamma.self] }
    static var messageTags: [MessageTag] { ["cache", "beta"] }
    let recorder: Recorder

    init(context: LifecycleContext) { recorder = context.recorder }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { module, message, _ in module.recorder.record("Beta got \(message.text)") }
        handlers.on(HowMany.self) { _, _, _ in 2 }
        handlers.on(CanHandle.self) { module, message, _ in
            module.recorder.record("Beta judged \(message.path)")
            return message.path == "/beta"
        }
        handlers.on(WhoOwns.self) { _, message, _ in message.key == "b" || message.key == "a" ? "Beta" : nil }
        handlers.on(Fail.self) { module, _, _ in module.recorder.record("Beta fine") }
        handlers.on(Bounce.self) { module, message, context in
            module.recorder.record("Beta bounce \(message.hops)")
            if message.hops > 0 {
                try context.messages.sendSynchronously(Bounce(hops: message.hops - 1), to: Alpha.self)
            }
        }
    }
}

/// Low priority, yet before Beta, which depends on it. An async receiver.
struct Gamma: MessageReceiving, Auditing {
    static let priority: ModulePriority = .low
    let recorder: Recorder

    init(context: LifecycleContext) { recorder = context.recorder }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { module, message, _ in module.recorder.record("Gamma got \(message.text)") }
        handlers.on(HowMany.self) { _, _, _ in 3 }
        handlers.on(Slow.self) { module, _, _ in
            await Task.yield()
            module.recorder.record("Gamma slow")
            return 30
        }
        handlers.on(Fail.self) { module, _, _ in
            module.recorder.record("Gamma failed")
            throw FixtureError(name: "Gamma")
        }
    }
}

/// Never answers `Hang`, and ignores cancellation: a receiver that hangs.
struct Delta: MessageReceiving {
    static let priority: ModulePriority = .minimum
    init(context: LifecycleContext) {}

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Hang.self) { _, _, _ in
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return 0
        }
        handlers.on(HowMany.self) { _, _, _ in
            try await Task.sleep(for: .milliseconds(1))
            return 4
        }
    }
}

/// A module that receives nothing.
struct Silent: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// Sends a message from its own launch hook, to show messages flow during launch.
struct LaunchSender: LifecycleModule, DidFinishLaunching, DependentModule {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [Alpha.self] }
    init(context: LifecycleContext) {}

    func didFinishLaunching(_ context: LifecycleContext) throws -> Bool {
        try context.messages(from: Self.self).sendSynchronously(Ping(text: "launch"), to: Alpha.self)
        return true
    }
}

/// Registers two handlers for one message.
struct Twice: MessageReceiving {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { _, _, _ in }
        handlers.on(Ping.self) { _, _, _ in }
    }
}

/// A count shared by one host's modules.
final class Tally: Sendable {
    let value = Atomic<Int>(0)
}

enum TallyKey: LaunchOptionKey {
    static let defaultValue = Tally()
}

/// Counts deliveries exactly, for the stress test: each delivery returns a distinct number.
struct Counter: MessageReceiving {
    static let priority: ModulePriority = .normal
    let tally: Tally
    init(context: LifecycleContext) { tally = context.launchOptions[TallyKey.self] }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(HowMany.self) { module, _, _ in module.tally.value.add(1, ordering: .relaxed).newValue }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) refused" }
}

// MARK: - Fixtures for the lifecycle edges

/// Sends from its initializer, before the host has launched, and records what it was told.
struct EagerSender: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {
        do {
            try context.messages(from: Self.self).sendSynchronously(Ping(text: "too early"), to: Alpha.self)
            context.recorder.record("EagerSender sent")
        } catch {
            context.recorder.record("EagerSender refused: \(error.code)")
        }
    }
}

struct AsyncBounce: Message {
    var hops: Int
}

/// Bounces `AsyncBounce` to itself through async handlers, without end: the task-local depth path.
struct Echo: MessageReceiving {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(AsyncBounce.self) { _, message, context in
            await Task.yield()
            try await context.messages.send(AsyncBounce(hops: message.hops + 1), to: Echo.self)
        }
    }
}

/// The host, for a handler that changes it.
final class HostBox: Sendable {
    let host = Locked<ApplicationHost?>(nil)
}

enum HostBoxKey: LaunchOptionKey {
    static let defaultValue = HostBox()
}

/// On `Ping`, removes `Victim` from the host before the broadcast reaches it.
struct Remover: MessageReceiving {
    static let priority: ModulePriority = .high
    let box: HostBox
    init(context: LifecycleContext) { box = context.launchOptions[HostBoxKey.self] }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { module, _, context in
            guard let host = module.box.host.withLock({ $0 }) else { return }
            _ = try await host.remove(Victim.self)
            context.lifecycle.recorder.record("Remover removed Victim")
        }
    }
}

/// Receives `Ping` after `Remover`, unless it was removed first.
struct Victim: MessageReceiving {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { _, _, context in context.lifecycle.recorder.record("Victim got Ping") }
    }
}

/// Lets a test see when a module instance is freed.
final class Canary: Sendable {}

/// Canaries, held weakly.
final class CanaryWatch: Sendable {
    final class Weak: Sendable {
        weak let canary: Canary?
        init(_ canary: Canary) { self.canary = canary }
    }
    private let seen = Locked<[Weak]>([])
    func watch(_ canary: Canary) { seen.withLock { $0.append(Weak(canary)) } }
    var alive: Int { seen.withLock { $0.filter { $0.canary != nil }.count } }
}

enum CanaryKey: LaunchOptionKey {
    static let defaultValue = CanaryWatch()
}

/// A receiver whose instance holds a canary.
struct Held: MessageReceiving {
    static let priority: ModulePriority = .normal
    let canary = Canary()
    init(context: LifecycleContext) { context.launchOptions[CanaryKey.self].watch(canary) }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(HowMany.self) { _, _, _ in 5 }
    }
}
