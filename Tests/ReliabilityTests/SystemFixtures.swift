import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleServices

// The modules of the whole-system model (SystemModelTests): a store that provides two services and receives a
// message, a cache that depends on it, and an audit registered at run time. What they do is decided by one
// `SystemWorld` per host, in its launch options.

/// What one host's modules share: which receivers throw, whether the singleton's factory throws, and how many
/// services the factories made.
final class SystemWorld: Sendable {
    private struct State {
        var failingReceivers: Set<String> = []
        var failingHooks: Set<String> = []
        var factoryFails = false
        var singletons = 0
        var tickets = 0
    }

    private let state = Locked(State())

    func setFailing(_ receiver: String, _ failing: Bool) {
        state.withLock { state in
            if failing { state.failingReceivers.insert(receiver) } else { state.failingReceivers.remove(receiver) }
        }
    }

    func setFactoryFails(_ fails: Bool) { state.withLock { $0.factoryFails = fails } }

    func setHookFails(_ module: String, _ failing: Bool) {
        state.withLock { state in
            if failing { state.failingHooks.insert(module) } else { state.failingHooks.remove(module) }
        }
    }

    /// The host's fault seam (the test kit's): a faulted module's `didEnterBackground` throws in place of the
    /// call.
    var injection: FaultInjection {
        FaultInjection { [self] participant, site in
            guard case .hook(.didEnterBackground) = site, let module = SystemModule.named(participant.name),
                state.withLock({ $0.failingHooks.contains(module.rawValue) })
            else { return nil }
            return .failure(SystemFault(receiver: module.rawValue))
        }
    }

    /// The reply of `receiver`, or the failure it throws.
    func answer(_ receiver: String, _ reply: Int) throws -> Int {
        if state.withLock({ $0.failingReceivers.contains(receiver) }) { throw SystemFault(receiver: receiver) }
        return reply
    }

    func makeSingleton() throws -> SystemCounter {
        try state.withLock { state in
            if state.factoryFails { throw SystemFault(receiver: "factory") }
            state.singletons += 1
            return SystemCounter(id: state.singletons)
        }
    }

    func makeTicket() -> SystemTicket {
        state.withLock { state in
            state.tickets += 1
            return SystemTicket(number: state.tickets)
        }
    }
}

enum SystemWorldKey: LaunchOptionKey {
    static let defaultValue = SystemWorld()
}

struct SystemFault: Error, CustomStringConvertible {
    let receiver: String
    var description: String { "\(receiver) failed (injected)" }
}

/// The singleton service: which creation it is.
final class SystemCounter: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// The transient service: which resolution made it.
struct SystemTicket: Sendable {
    let number: Int
}

/// Asks every receiver how it is numbered.
struct SystemAsk: Message {
    typealias Reply = Int
}

struct SystemStore: MessageReceiving, ServiceProvidingModule {
    static let priority: ModulePriority = .high
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton(SystemCounter.self) { resolver in
            try resolver.launchOptions[SystemWorldKey.self].makeSingleton()
        }
        services.transient(SystemTicket.self) { resolver in
            resolver.launchOptions[SystemWorldKey.self].makeTicket()
        }
    }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(SystemAsk.self) { module, _, _ in try module.world.answer("store", 1) }
    }
}

struct SystemCache: MessageReceiving, DependentModule, DidEnterBackground {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [SystemStore.self] }
    static var messageTags: [MessageTag] { ["cache"] }
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(SystemAsk.self) { module, _, _ in try module.world.answer("cache", 2) }
    }

    func didEnterBackground(_ context: LifecycleContext) {}
}

struct SystemAudit: MessageReceiving {
    static let priority: ModulePriority = .low
    static var messageTags: [MessageTag] { ["cache"] }
    let world: SystemWorld
    init(context: LifecycleContext) { world = context.launchOptions[SystemWorldKey.self] }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(SystemAsk.self) { module, _, _ in
            await Task.yield()
            return try module.world.answer("audit", 3)
        }
    }
}
