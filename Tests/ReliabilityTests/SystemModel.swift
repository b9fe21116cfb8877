import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleServices
import LifecycleTesting

// The whole-system model (issue 36): one random scenario mixes host transitions, run-time registration and
// removal, messages to one receiver, to a tag and to all, singleton and transient service resolution, and
// faults injected into message handlers and a service factory. `SystemReference` predicts every outcome from
// Docs/Events.md, Docs/Messages.md ("The rules", "Errors") and Docs/Services.md ("When services can be
// resolved", "Factories", "Errors") alone.

/// A module of the model, by its short name.
enum SystemModule: String, CaseIterable, Sendable {
    case store, cache, audit

    var type: any LifecycleModule.Type {
        switch self {
        case .store: SystemStore.self
        case .cache: SystemCache.self
        case .audit: SystemAudit.self
        }
    }

    /// Its reply to `SystemAsk`.
    var reply: Int {
        switch self {
        case .store: 1
        case .cache: 2
        case .audit: 3
        }
    }

    /// Whether it carries the tag `cache`.
    var isTaggedCache: Bool { self != .store }

    /// The short name of a module-qualified one, or `nil` for a module outside the model.
    static func named(_ name: String) -> SystemModule? {
        allCases.first { name.hasSuffix("." + String(describing: $0.type)) || name == String(describing: $0.type) }
    }
}

/// One operation of a scenario.
enum SystemOp: Hashable, Sendable, CustomStringConvertible {
    case launch, enterBackground, enterForeground, terminate
    case register(SystemModule)
    case remove(SystemModule)
    case send(SystemModule)
    case broadcastAll, broadcastCache
    case resolveCounter, resolveTicket
    case fail(SystemModule)
    case heal(SystemModule)
    case factoryFails, factoryHeals
    case failHook(SystemModule)
    case healHook(SystemModule)
    case release(SystemModule)
    case open, failShow, healShow
    case guardMode(SystemGuardMode)

    /// Whether it is a host request, processed in the host's queue (Docs/Events.md), as opposed to a message,
    /// a resolution, or a switch of the test's world.
    var isHostRequest: Bool {
        switch self {
        case .launch, .enterBackground, .enterForeground, .terminate, .register, .remove, .release: true
        default: false
        }
    }

    var description: String {
        switch self {
        case .launch: "launch"
        case .enterBackground: "enterBackground"
        case .enterForeground: "enterForeground"
        case .terminate: "terminate"
        case .register(let module): "register(\(module))"
        case .remove(let module): "remove(\(module))"
        case .send(let module): "send(SystemAsk, to: \(module))"
        case .broadcastAll: "broadcast(SystemAsk)"
        case .broadcastCache: "broadcast(SystemAsk, to: .tagged(cache))"
        case .resolveCounter: "require(SystemCounter)"
        case .resolveTicket: "require(SystemTicket)"
        case .fail(let module): "fault \(module)'s handler"
        case .heal(let module): "heal \(module)'s handler"
        case .factoryFails: "fault the counter's factory"
        case .factoryHeals: "heal the counter's factory"
        case .failHook(let module): "fault \(module)'s didEnterBackground"
        case .healHook(let module): "heal \(module)'s didEnterBackground"
        case .release(let module): "releaseQuarantine(\(module))"
        case .open: "router.open(SystemShow())"
        case .guardMode(let mode): "guard: \(mode)"
        case .failShow: "fault SystemShow's handler"
        case .healShow: "heal SystemShow's handler"
        }
    }

    /// Draws one operation, in proportions that reach every outcome within a few operations.
    static func draw(_ random: inout SplitMix64) -> SystemOp {
        let modules = SystemModule.allCases
        let movable: [SystemModule] = [.cache, .audit]
        switch random.below(30) {
        case 24, 25, 26: return .open
        case 27: return .guardMode(SystemGuardMode.allCases[random.below(SystemGuardMode.allCases.count)])
        case 28: return .failShow
        case 29: return .healShow
        case 20, 21: return .failHook(.cache)
        case 22: return .healHook(.cache)
        case 23: return .release(movable[random.below(2)])
        case 0: return .launch
        case 1: return .enterBackground
        case 2: return .enterForeground
        case 3: return random.below(3) == 0 ? .terminate : .broadcastAll
        case 4, 5: return .register(random.below(4) == 0 ? .store : movable[random.below(2)])
        case 6, 7: return .remove(random.below(4) == 0 ? .store : movable[random.below(2)])
        case 8, 9, 10: return .send(modules[random.below(3)])
        case 11, 12: return .broadcastAll
        case 13: return .broadcastCache
        case 14: return .resolveCounter
        case 15: return .resolveTicket
        case 16: return .fail(modules[random.below(3)])
        case 17: return .heal(modules[random.below(3)])
        case 18: return .factoryFails
        default: return .factoryHeals
        }
    }
}

/// What the reference model predicts, from the docs alone.
struct SystemReference {
    /// A deliberately wrong rule, for the self-test: a model that breaks it must be caught.
    enum Mutation: Sendable {
        /// Broadcasts answer in reverse delivery order.
        case reverseBroadcasts
        /// A removed receiver still answers a message sent to it.
        case removedStillReceives
    }

    var mutation: Mutation?
    var state: ApplicationState = .notRunning
    /// The receivers that take part: the manifest's store and cache to begin with.
    var present: Set<SystemModule> = [.store, .cache]
    var failing: Set<SystemModule> = []
    var factoryFails = false
    /// The singleton's id once created: the number of successful creations then.
    var counter: Int?
    var counterCreations = 0
    var tickets = 0
    /// Whose `didEnterBackground` throws, and how many hook failures each module's current instance has had.
    var hookFaulted: Set<SystemModule> = []
    var hookFailures: [SystemModule: Int] = [:]
    var quarantined: Set<SystemModule> = []
    var guardMode = SystemGuardMode.pass
    var signedIn = false
    var showFails = false
    /// Docs/Routing.md, "Loops": `Router.maximumRestarts`.
    static let maximumRestarts = 8
    /// Docs/Failures.md, "Quarantine": two failures within the test's window.
    static let quarantineThreshold = 2

    /// Delivery order (Docs/Messages.md, "Order"): dependencies first, then priority, highest first. The
    /// cache depends on the store; the store is high, the cache normal, the audit low.
    var order: [SystemModule] { SystemModule.allCases.filter(present.contains) }

    /// The outcome of `op`; then the quarantine it made due (Docs/Failures.md, "Quarantine", step 2).
    mutating func apply(_ op: SystemOp) -> String {
        let outcome = perform(op)
        // Right after the request, in the host's queue (the runner waits until the host is idle): a module
        // still present that crossed its threshold leaves. One that left since (removed by the request whose
        // teardown failed) is not quarantined (Docs/Failures.md, "Quarantine").
        for module in SystemModule.allCases
        where present.contains(module) && hookFailures[module, default: 0] >= Self.quarantineThreshold {
            hookFailures[module] = 0
            quarantined.insert(module)
            present.remove(module)
        }
        return outcome
    }

    /// A hook of `module` for an event other than termination threw: one more failure of its instance.
    private mutating func hookFailed(_ module: SystemModule) {
        hookFailures[module, default: 0] += 1
    }

    /// Whether `module`'s `didEnterBackground` runs now and throws; counted if so.
    private mutating func backgroundHookFails(_ module: SystemModule) -> Bool {
        guard module == .cache, hookFaulted.contains(module) else { return false }
        hookFailed(module)
        return true
    }

    /// `module` joins, created anew: its failures count from zero; in the background, its catch-up includes
    /// `didEnterBackground` (Docs/Modules.md, catch-up).
    private mutating func join(_ module: SystemModule) -> String {
        present.insert(module)
        hookFailures[module] = 0
        if state == .background, backgroundHookFails(module) { return "error hookFailed" }
        return "ok"
    }

    private mutating func perform(_ op: SystemOp) -> String {
        switch op {
        case .launch:
            guard state == .notRunning else { return "error invalidTransition" }
            state = .active
            return "ok"
        case .enterBackground:
            guard state == .active || state == .inactive else { return "error invalidTransition" }
            state = .background
            // Docs/Failures.md: the state change happens; the request throws hookFailed.
            let failed = present.contains(.cache) && backgroundHookFails(.cache)
            return failed ? "error hookFailed" : "ok"
        case .enterForeground:
            guard state == .background else { return "error invalidTransition" }
            state = .active
            return "ok"
        case .terminate:
            guard state.isRunning else { return "error invalidTransition" }
            state = .terminated
            return "ok"
        case .register(let module):
            // Docs/Events.md: registration is allowed before launch and while running.
            guard state == .notRunning || state.isRunning else { return "error invalidTransition" }
            // A participant already, or a dependency missing: it cannot join (`registrationFailed`).
            // Docs/Failures.md: a quarantined module is refused as disabled until it is released.
            if quarantined.contains(module) { return "error registrationFailed/moduleDisabled" }
            if present.contains(module) { return "error registrationFailed/duplicateModule" }
            if module == .cache, !present.contains(.store) { return "error registrationFailed/missingDependency" }
            return join(module)
        case .remove(let module):
            guard state == .notRunning || state.isRunning else { return "error invalidTransition" }
            guard present.contains(module) else { return "error removalFailed/notAParticipant" }
            // The cache depends on the store: the store cannot leave while it stays.
            if module == .store, present.contains(.cache) { return "error removalFailed/requiredByOthers" }
            present.remove(module)
            // Its teardown for the state (Docs/Events.md): from active or inactive it includes
            // didEnterBackground. A teardown hook that throws does not stop the removal.
            let failed = (state == .active || state == .inactive) && backgroundHookFails(module)
            return failed ? "error hookFailed" : "ok"
        case .send(let module):
            if let refused = refusedOutsideTheRun() { return refused }
            guard present.contains(module) || mutation == .removedStillReceives else { return "error noReceiver" }
            return failing.contains(module) ? "failed [\(module.rawValue)]" : "reply \(module.reply)"
        case .broadcastAll:
            return broadcast(order)
        case .broadcastCache:
            return broadcast(order.filter(\.isTaggedCache))
        case .resolveCounter:
            if let refused = refusedOutsideTheRun() { return refused }
            if let counter { return "counter \(counter)" }
            // Docs/Services.md, "Factories": a factory that throws gives factoryFailed; nothing is cached.
            if factoryFails { return "error factoryFailed" }
            counterCreations += 1
            counter = counterCreations
            return "counter \(counterCreations)"
        case .resolveTicket:
            if let refused = refusedOutsideTheRun() { return refused }
            tickets += 1
            return "ticket \(tickets)"
        case .fail(let module):
            failing.insert(module)
            return "ok"
        case .heal(let module):
            failing.remove(module)
            return "ok"
        case .factoryFails:
            factoryFails = true
            return "ok"
        case .factoryHeals:
            factoryFails = false
            return "ok"
        case .failHook(let module):
            hookFaulted.insert(module)
            return "ok"
        case .healHook(let module):
            hookFaulted.remove(module)
            return "ok"
        case .release(let module):
            guard state == .notRunning || state.isRunning else { return "error invalidTransition" }
            guard quarantined.remove(module) != nil else { return "error reconfigurationFailed" }
            return join(module)
        case .open:
            return openShow()
        case .guardMode(let mode):
            guardMode = mode
            return "ok"
        case .failShow:
            showFails = true
            return "ok"
        case .healShow:
            showFails = false
            return "ok"
        }
    }

    /// Messages (Docs/Messages.md, "When messages flow") and services (Docs/Services.md, "When services can be
    /// resolved") share one window, from launch until termination: both are refused outside it, with the same
    /// two codes.
    private func refusedOutsideTheRun() -> String? {
        switch state {
        case .notRunning: "error notLaunched"
        case .terminated: "error terminated"
        default: nil
        }
    }

    /// Docs/Routing.md, "Interceptors": the guard (priority 100) judges before the tally (10); a switch
    /// opens the other intent first, through every interceptor, nested, and then restarts the original from
    /// the first interceptor; a restart past `maximumRestarts` is `loopLimit`; a rejection is `rejected`; a
    /// route no present module serves is `notServed`, before any interceptor (Docs/Routing.md, "Errors"), and
    /// a handler that throws `handlerFailed`. The outcome lists every judgement, in order.
    private mutating func openShow() -> String {
        var judgements: [String] = []
        func outcome(_ text: String) -> String { "\(text) \(judgements)" }
        var restarts = 0
        // A route opened by value that no present module serves fails at once, before any interceptor judges it.
        guard present.contains(.cache) else { return outcome("error notServed") }
        while true {
            judgements.append("guard show")
            let switchedTo: String?
            switch guardMode {
            case .pass: switchedTo = nil
            case .reject: return outcome("error rejected")
            case .requireSignIn: switchedTo = signedIn ? nil : "signIn"
            case .loop: switchedTo = "noop"
            }
            if let switchedTo {
                // A switched intent's failure fails the original with its error.
                guard present.contains(.store) else { return outcome("error notServed") }
                judgements += ["guard \(switchedTo)", "tally \(switchedTo)"]
                if switchedTo == "signIn" { signedIn = true }
                restarts += 1
                if restarts > Self.maximumRestarts { return outcome("error loopLimit") }
                continue
            }
            judgements.append("tally show")
            return outcome(showFails ? "error handlerFailed" : "result 20")
        }
    }

    /// Docs/Messages.md, "Combining replies" and "Failures": every receiver is called, in delivery order; if
    /// any threw, the broadcast throws receiverFailed listing each failing one.
    private func broadcast(_ receivers: [SystemModule]) -> String {
        if let refused = refusedOutsideTheRun() { return refused }
        let ordered = mutation == .reverseBroadcasts ? receivers.reversed() : receivers
        let failed = ordered.filter(failing.contains)
        if !failed.isEmpty { return "failed [\(failed.map(\.rawValue).joined(separator: ", "))]" }
        return "replies \(ordered.map(\.reply))"
    }
}
