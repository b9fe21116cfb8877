import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleScopes
import LifecycleServices
import LifecycleTesting

// The whole-system model (issue 36): one random scenario mixes host transitions, run-time registration and
// removal, reloads that switch modules off and on, quarantine and release, messages to one receiver, to a tag
// and to all, singleton, transient and scoped service resolution, route openings through interceptors,
// request scopes run from concurrent tasks and sessions begun and ended from different tasks, and faults
// injected into hooks, handlers, a factory, scope actions and a scoped service's shutdown. `SystemReference`
// predicts every outcome from Docs/Events.md, Modules.md ("Switching modules on and off"), Messages.md,
// Services.md, Routing.md, Scopes.md and Failures.md alone.

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

    /// Its work's name in `host.workStatus`: `store.listen`.
    var workName: String { rawValue + (self == .store ? ".listen" : ".refresh") }

    /// Whether it carries the tag `cache`.
    var isTaggedCache: Bool { self != .store }

    /// The model's name for the module-qualified `name`, or `name` itself for a module outside the model.
    static func shortName(_ name: String) -> String { named(name)?.rawValue ?? name }

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
    case reload(SystemSwitches)
    /// That many request scopes at once, each from its own task.
    case requests(Int)
    /// Begins a session from a new task; ends the oldest from another.
    case beginSession, endSession
    case scopeFault(SystemScopeFault)
    case scopeHeal
    /// The cache's work throws when it starts; or no longer.
    case failWork, healWork
    /// Reads every work's phase, whose bodies run, and how often each started.
    case checkWork

    /// Whether it is a host request, processed in the host's queue (Docs/Events.md), as opposed to a message,
    /// a resolution, or a switch of the test's world.
    var isHostRequest: Bool {
        switch self {
        case .launch, .enterBackground, .enterForeground, .terminate, .register, .remove, .release, .reload: true
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
        case .reload(let switches): "reloadModules(\(switches))"
        case .requests(let count): "\(count) request scopes at once"
        case .beginSession: "begin a session"
        case .endSession: "end the oldest session"
        case .scopeFault(let fault): "fault: \(fault)"
        case .scopeHeal: "heal the scopes"
        case .failWork: "fault the cache's work"
        case .healWork: "heal the cache's work"
        case .checkWork: "check the work"
        }
    }

    /// Draws one operation, in proportions that reach every outcome within a few operations.
    static func draw(_ random: inout SplitMix64) -> SystemOp {
        let modules = SystemModule.allCases
        let movable: [SystemModule] = [.cache, .audit]
        switch random.below(44) {
        // The host.
        case 0: return .launch
        case 1: return .enterBackground
        case 2: return .enterForeground
        case 3: return random.below(3) == 0 ? .terminate : .broadcastAll
        case 4, 5: return .register(random.below(4) == 0 ? .store : movable[random.below(2)])
        case 6, 7: return .remove(random.below(4) == 0 ? .store : movable[random.below(2)])
        // Messages and services.
        case 8, 9, 10: return .send(modules[random.below(3)])
        case 11, 12: return .broadcastAll
        case 13: return .broadcastCache
        case 14: return .resolveCounter
        case 15: return .resolveTicket
        case 16: return .fail(modules[random.below(3)])
        // Failing receivers outlast heals, so that a broadcast finds all three failing now and then.
        case 17: return random.below(3) == 0 ? .heal(modules[random.below(3)]) : .fail(modules[random.below(3)])
        case 18: return .factoryFails
        case 19: return .factoryHeals
        // Hook faults and quarantine.
        case 20, 21: return .failHook(.cache)
        case 22: return .healHook(.cache)
        case 23: return .release(movable[random.below(2)])
        // Routes.
        case 24, 25, 26: return .open
        case 27: return .guardMode(SystemGuardMode.allCases[random.below(SystemGuardMode.allCases.count)])
        case 28: return .failShow
        case 29: return .healShow
        // Reloads.
        case 30, 31: return .reload(SystemSwitches.allCases[random.below(SystemSwitches.allCases.count)])
        case 32: return .reload(.allOn)
        // Scopes.
        case 33, 34: return .requests(1 + random.below(3))
        case 35: return .beginSession
        case 36: return .endSession
        case 37, 38: return .scopeFault(SystemScopeFault.allCases[random.below(SystemScopeFault.allCases.count)])
        case 39: return .scopeHeal
        // Work.
        case 40: return .failWork
        case 41: return .healWork
        default: return .checkWork
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
        /// A scope's teardown runs the global actions in their forward order.
        case scopeTeardownInOrder
        /// A module a switch keeps off can be registered.
        case switchedOffRegisters
        /// Work that runs while active keeps running in the background.
        case workOutlivesActive
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
    /// The modules the host knows, on or off: the manifest's and those registered since, less those removed
    /// (Docs/Modules.md, "Switching modules on and off": what a reload can turn back on).
    var catalog: Set<SystemModule> = [.store, .cache]
    /// The module the current switches turn off.
    var switchedOff: SystemModule?
    var scopeFaults: Set<SystemScopeFault> = []
    /// The sessions in flight, oldest first: whether each made its cart.
    var sessions: [Bool] = []
    /// Docs/Work.md: the store's work runs for the application's lifetime, the cache's while it is active;
    /// the cache's, when faulted, throws at once and is not restarted (`.temporary`, escalation `.ignore`).
    var workFails = false
    var workPhase: [SystemModule: String] = [:]
    var workStarts: [SystemModule: Int] = [:]
    /// The works that gave up since their schedule's state last began: they stay stopped until it ends.
    var workGaveUpInThisState: Set<SystemModule> = []
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
        settleWork()
        // Right after the request, in the host's queue (the runner waits until the host is idle): a module
        // still present that crossed its threshold leaves. One that left since (removed by the request whose
        // teardown failed) is not quarantined (Docs/Failures.md, "Quarantine").
        for module in SystemModule.allCases
        where present.contains(module) && hookFailures[module, default: 0] >= Self.quarantineThreshold {
            hookFailures[module] = 0
            quarantined.insert(module)
            present.remove(module)
        }
        settleWork()
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
        catalog.insert(module)
        workPhase[module] = nil
        workGaveUpInThisState.remove(module)
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
            // So is one a switch keeps off (Docs/Modules.md).
            if quarantined.contains(module) || (switchedOff == module && mutation != .switchedOffRegisters) {
                return "error registrationFailed/moduleDisabled"
            }
            if present.contains(module) { return "error registrationFailed/duplicateModule" }
            if module == .cache, !present.contains(.store) { return "error registrationFailed/missingDependency" }
            return join(module)
        case .remove(let module):
            guard state == .notRunning || state.isRunning else { return "error invalidTransition" }
            guard present.contains(module) else { return "error removalFailed/notAParticipant" }
            // The cache depends on the store: the store cannot leave while it stays.
            if module == .store, present.contains(.cache) { return "error removalFailed/requiredByOthers" }
            present.remove(module)
            catalog.remove(module)
            // Its teardown for the state (Docs/Events.md): from active or inactive it includes
            // didEnterBackground. A teardown hook that throws does not stop the removal.
            let failed = (state == .active || state == .inactive) && backgroundHookFails(module)
            return failed ? "error hookFailed" : "ok"
        case .send(let module):
            return send(to: module)
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
            return reconcile()
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
        case .reload(let switches):
            // Docs/Modules.md, "On reload": refused while terminating or terminated; switches that name no
            // module the host knows change nothing; otherwise every quarantine is released and the modules are
            // turned to the switches.
            guard state == .notRunning || state.isRunning else { return "error invalidTransition" }
            if let off = switches.off, !catalog.contains(off) { return "error reconfigurationFailed" }
            if switches == .unknown { return "error reconfigurationFailed" }
            quarantined = []
            switchedOff = switches.off
            return reconcile()
        case .requests(let count):
            return requests(count)
        case .beginSession:
            return beginSession()
        case .endSession:
            return endSession()
        case .scopeFault(let fault):
            scopeFaults.insert(fault)
            return "ok"
        case .scopeHeal:
            scopeFaults = []
            return "ok"
        case .failWork:
            workFails = true
            return "ok"
        case .healWork:
            workFails = false
            return "ok"
        case .checkWork:
            // `host.workStatus` lists the works of the modules taking part, in delivery order.
            let working = order.filter { $0 != .audit }
            let phases = working.map { "\($0.workName) \(workPhase[$0] ?? "notStarted")" }
            let running = working.filter { workPhase[$0] == "ready" }.map(\.rawValue)
            let starts = SystemModule.allCases.compactMap { module in workStarts[module].map { "\(module) \($0)" } }
            return "work \(phases) bodies \(running) starts \(starts)"
        }
    }

    /// Docs/Work.md, "Where work sits among the hooks" and "When work ends or throws": a work runs while its
    /// schedule's state holds and its module takes part; it starts when that begins (each time the host
    /// becomes active, for the cache's) and stops when it ends (a removal, a switch, a quarantine, leaving
    /// active, termination). A work that threw stays stopped until its schedule's state next begins. A new
    /// instance's work has not started.
    private mutating func settleWork() {
        for module in [SystemModule.store, .cache] {
            guard present.contains(module) else {
                workPhase[module] = nil
                workGaveUpInThisState.remove(module)
                continue
            }
            let holds =
                module == .store || mutation == .workOutlivesActive ? state.isRunning : state == .active
            let phase = workPhase[module] ?? "notStarted"
            if !holds {
                // Its schedule's state ended: a running work stops; one that gave up may start again when
                // the state next begins, and says it gave up until then.
                workGaveUpInThisState.remove(module)
                if phase == "ready" { workPhase[module] = "stopped" }
                continue
            }
            let startable =
                phase == "notStarted" || phase == "stopped"
                || (phase == "gaveUp" && !workGaveUpInThisState.contains(module))
            guard startable else { continue }
            workStarts[module, default: 0] += 1
            if module == .cache && workFails {
                workPhase[module] = "gaveUp"
                workGaveUpInThisState.insert(module)
            } else {
                // Docs/Work.md ("Seeing it", `WorkStatus.Phase`): a running work that does not report readiness
                // is ready.
                workPhase[module] = "ready"
            }
        }
    }

    /// Whether `module` is off: switched off, quarantined, or depending on a module of the host that is
    /// (Docs/Modules.md, "The rule for dependents").
    private func isOff(_ module: SystemModule) -> Bool {
        if switchedOff == module || quarantined.contains(module) { return true }
        return module == .cache && catalog.contains(.store) && isOff(.store)
    }

    /// Turns the modules to the switches and quarantines (Docs/Modules.md, "On reload"): those now off leave,
    /// dependents first, each with its teardown for the state; those now on join, dependencies first, each
    /// created anew and caught up; one that cannot join (its dependency is no module of the host) is refused.
    private mutating func reconcile() -> String {
        var failed = false
        var off: [SystemModule] = []
        for module in order.reversed() where isOff(module) {
            present.remove(module)
            off.append(module)
            if (state == .active || state == .inactive) && backgroundHookFails(module) { failed = true }
        }
        var on: [SystemModule] = []
        var refused: [SystemModule] = []
        for module in SystemModule.allCases
        where catalog.contains(module) && !present.contains(module) && !isOff(module) {
            if module == .cache, !present.contains(.store) {
                refused.append(module)
                continue
            }
            if join(module) != "ok" { failed = true }
            on.append(module)
        }
        let changes = SystemReference.changes(off: off, on: on, refused: refused)
        return failed ? "error hookFailed \(changes)" : changes
    }

    /// A reload's or release's changes in the model's words; turned on sorted by name, since the order they
    /// join in is the dependencies' only.
    static func changes(off: [SystemModule], on: [SystemModule], refused: [SystemModule]) -> String {
        let names = { (modules: [SystemModule]) in modules.map(\.rawValue) }
        return "changes off \(names(off)) on \(names(on).sorted()) refused \(names(refused))"
    }

    /// Docs/Messages.md: a send to one receiver.
    private func send(to module: SystemModule) -> String {
        if let refused = refusedOutsideTheRun() { return refused }
        guard present.contains(module) || mutation == .removedStillReceives else { return "error noReceiver" }
        return failing.contains(module) ? "failed [\(module.rawValue)]" : "reply \(module.reply)"
    }

    /// `count` request scopes from as many tasks at once, each resolving its cart twice and sending to the
    /// store (Docs/Scopes.md, "The state machine", "Ordering", "Failures"; Docs/Services.md, "Scoped
    /// services"). Each scope's deliveries are its own whatever the interleaving, so every task predicts the
    /// same.
    private func requests(_ count: Int) -> String {
        // Forward: the log (high) before the gate (low).
        var lines = ["begin log"]
        if scopeFaults.contains(.gateAbortsBegin) {
            // `.abort` at begin: those that began before it end, in reverse; the step throws actionFailed.
            lines += ["begin gate failed", "end log"]
            return "\(count)× error actionFailed \(lines)"
        }
        lines += ["begin gate", scopeFaults.contains(.logFailsActivate) ? "activate log failed" : "activate log"]
        lines.append("activate gate")
        // The body: a scoped service outside the run is refused as any service is, and the body throws it.
        let body: String
        if let refused = refusedOutsideTheRun() { body = refused } else { body = "cart shared, " + send(to: .store) }
        // Teardown mirrors: the gate, then the log; then the release of what the scope stored.
        if mutation == .scopeTeardownInOrder {
            lines += ["deactivate log", "deactivate gate", "end log", "end gate"]
        } else {
            lines += ["deactivate gate", "deactivate log", "end gate", "end log"]
        }
        if refusedOutsideTheRun() == nil { lines.append(cartRelease) }
        return "\(count)× \(body) \(lines)"
    }

    private var cartRelease: String {
        scopeFaults.contains(.cartShutdownFails) ? "release cart failed" : "release cart"
    }

    /// A session: only the log is for every kind.
    private mutating func beginSession() -> String {
        let lines = ["begin log", scopeFaults.contains(.logFailsActivate) ? "activate log failed" : "activate log"]
        let cart = refusedOutsideTheRun() ?? "cart"
        sessions.append(refusedOutsideTheRun() == nil)
        return "\(cart) \(lines) in flight \(sessions.count)"
    }

    private mutating func endSession() -> String {
        guard !sessions.isEmpty else { return "no session" }
        let madeCart = sessions.removeFirst()
        let lines = ["deactivate log", "end log"] + (madeCart ? [cartRelease] : [])
        return "ended \(lines) in flight \(sessions.count)"
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

/// The switches a reload turns the modules to: every module on, one off, or a name that is no module.
enum SystemSwitches: String, CaseIterable, Sendable, CustomStringConvertible {
    case allOn, storeOff, cacheOff, auditOff, unknown

    /// The module turned off.
    var off: SystemModule? {
        switch self {
        case .storeOff: .store
        case .cacheOff: .cache
        case .auditOff: .audit
        case .allOn, .unknown: nil
        }
    }

    var value: ModuleSwitches {
        guard self != .allOn else { return .none }
        let name = off.map { String(describing: $0.type) } ?? "SystemGhost"
        return ModuleSwitches(switches: [name: .init(isOn: false, source: "the model")])
    }

    var description: String { rawValue }
}
