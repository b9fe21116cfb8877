import Foundation
import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleRouting
import LifecycleScopes
import LifecycleServices
import LifecycleTesting
import LifecycleWork

/// A scenario of the whole-system model: its seed and operations.
struct SystemScenario: Sendable, CustomStringConvertible {
    let seed: UInt64
    var ops: [SystemOp]

    static let length = 32

    static func generate(seed: UInt64) -> SystemScenario {
        var random = SplitMix64(seed: seed)
        return SystemScenario(seed: seed, ops: (0..<length).map { _ in SystemOp.draw(&random) })
    }

    var description: String { ops.map(\.description).joined(separator: "; ") }
}

/// The first operation whose outcome the host and the model disagree on.
struct SystemMismatch: Sendable, CustomStringConvertible {
    let index: Int
    let op: SystemOp
    let host: String
    let model: String

    var description: String { "op \(index + 1) \(op): the host gave \"\(host)\", the model predicts \"\(model)\"" }
}

enum SystemModelRunner {
    /// Runs `scenario` on a new host and on the reference; the outcomes seen, and the first disagreement.
    static func run(
        _ scenario: SystemScenario,
        mutation: SystemReference.Mutation? = nil
    ) async throws -> (outcomes: [String], mismatch: SystemMismatch?) {
        let world = SystemWorld()
        var configuration = ApplicationHost.Configuration(
            hookBudget: nil,
            terminateDeadline: nil,
            quarantine: QuarantinePolicy(failures: SystemReference.quarantineThreshold, within: .seconds(3_600)),
            journalCapacity: 0,
            onUnobservedError: { _ in }
        )
        configuration.faultInjection = world.injection
        var options = LaunchOptions()
        options[SystemWorldKey.self] = world
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "System", [SystemStore.self, SystemCache.self]).withServices()
                .withMessages().withRouting(interceptors: [SystemGuard.self, SystemTally.self])
                .withScopes(actions: [SystemScopeLog.self, SystemScopeGate.self], endBudget: nil).withWork(),
            launchOptions: options,
            configuration: configuration
        )
        var reference = SystemReference(mutation: mutation)
        var outcomes: [String] = []
        for (index, op) in scenario.ops.enumerated() {
            let actual = await perform(op, on: host, world: world)
            // A quarantine runs right after the request that made it due, in the host's queue.
            if op.isHostRequest {
                try? await host.waitUntilIdle()
                await settleWork(of: host, world: world)
            }
            let predicted = reference.apply(op)
            outcomes.append(predicted)
            if actual != predicted {
                return (outcomes, SystemMismatch(index: index, op: op, host: actual, model: predicted))
            }
        }
        while let session = world.takeOldestSession() { try? await session.end() }
        if host.state.isRunning { try? await host.terminate() }
        return (outcomes, nil)
    }

    /// Does `op` on the host, and says what came of it in the model's words.
    static func perform(_ op: SystemOp, on host: ApplicationHost, world: SystemWorld) async -> String {
        let messages = host.context.messages
        let services = host.context.services
        do {
            switch op {
            case .launch: _ = try await host.launch()
            case .enterBackground: try await host.enterBackground()
            case .enterForeground: try await host.enterForeground()
            case .terminate: try await host.terminate()
            case .register(let module): try await host.register(module.type)
            case .remove(let module): try await host.remove(module.type)
            case .send(let module):
                let reply: Int
                switch module {
                case .store: reply = try await messages.send(SystemAsk(), to: SystemStore.self)
                case .cache: reply = try await messages.send(SystemAsk(), to: SystemCache.self)
                case .audit: reply = try await messages.send(SystemAsk(), to: SystemAudit.self)
                }
                return "reply \(reply)"
            case .broadcastAll:
                return "replies \(try await messages.broadcast(SystemAsk(), combining: .collect))"
            case .broadcastCache:
                let replies = try await messages.broadcast(SystemAsk(), to: .tagged("cache"), combining: .collect)
                return "replies \(replies)"
            case .resolveCounter: return "counter \(try services.require(SystemCounter.self).id)"
            case .resolveTicket: return "ticket \(try services.require(SystemTicket.self).number)"
            case .fail(let module): world.setFailing(module.rawValue, true)
            case .heal(let module): world.setFailing(module.rawValue, false)
            case .factoryFails: world.setFactoryFails(true)
            case .factoryHeals: world.setFactoryFails(false)
            case .failHook(let module): world.setHookFails(module.rawValue, true)
            case .healHook(let module): world.setHookFails(module.rawValue, false)
            case .release(let module): return describe(try await host.releaseQuarantine(module.type))
            case .reload(let switches): return describe(try await host.reloadModules(switches.value))
            case .requests(let count): return await requests(count, on: host, world: world)
            case .beginSession:
                // From a task of its own: the session outlives it, and another task ends it.
                return await Task { await beginSession(on: host, world: world) }.value
            case .endSession:
                guard let session = world.takeOldestSession() else { return "no session" }
                let before = world.scopeLines(session.name).count
                return await Task {
                    do {
                        try await session.end()
                    } catch {
                        return describe(error)
                    }
                    let inFlight = host.scopes?.inFlight(.session).count ?? -1
                    return "ended \(Array(world.scopeLines(session.name).dropFirst(before))) in flight \(inFlight)"
                }.value
            case .scopeFault(let fault): world.setScopeFault(fault, true)
            case .scopeHeal: world.clearScopeFaults()
            case .failWork: world.setWorkFails("cache", true)
            case .healWork: world.setWorkFails("cache", false)
            case .checkWork:
                let status = host.workStatus
                let phases = status.map {
                    "\(SystemModule.shortName($0.module)).\($0.name) \($0.phase)"
                }
                let (running, starts) = world.work
                let bodies = SystemModule.allCases.filter { running.contains($0.rawValue) }.map(\.rawValue)
                let counts = SystemModule.allCases.compactMap { module in
                    starts[module.rawValue].map { "\(module) \($0)" }
                }
                return "work \(phases) bodies \(bodies) starts \(counts)"
            case .open:
                do {
                    let shown = try await host.router?.open(SystemShow())
                    return "result \(shown.map(String.init) ?? "no router") \(world.takeJudgements())"
                } catch {
                    return "error \(error.code) \(world.takeJudgements())"
                }
            case .guardMode(let mode): world.setGuard(mode)
            case .failShow: world.setFailing("show", true)
            case .healShow: world.setFailing("show", false)
            }
            return "ok"
        } catch {
            return describe(error)
        }
    }

    /// Waits until the works the host started have started their bodies, and those that threw have given
    /// up: work starts in a task of its own after the request that opens its state (Docs/Work.md), so the
    /// request can return first. Stops need no wait: a request returns once its work has stopped. A host
    /// that never settles is left to the next `checkWork` to report, after a long hang guard.
    static func settleWork(of host: ApplicationHost, world: SystemWorld) async {
        for attempt in 0..<20_000 {
            let status = host.workStatus
            let moving = status.contains { $0.phase == .stopping || $0.phase == .restarting }
            let started = Set(
                status.filter { $0.phase == .running || $0.phase == .ready }
                    .map { SystemModule.shortName($0.module) }
            )
            if !moving, started == world.work.running { return }
            if attempt < 100 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
    }

    /// `count` request scopes at once, each from its own task: each resolves its cart from the scope and again
    /// from the task's current scope, and sends to the store. One line when every task saw the same.
    static func requests(_ count: Int, on host: ApplicationHost, world: SystemWorld) async -> String {
        guard let scopes = host.scopes else { return "no scopes" }
        let services = host.context.services
        let messages = host.context.messages
        let results = await withTaskGroup(of: (line: String, cart: Int?).self) { group in
            for _ in 0..<count {
                let name = world.nextScopeName("r")
                group.addTask {
                    var cartID: Int?
                    let body: String
                    do {
                        body = try await scopes.withScope(.request, name) { scope in
                            let cart = try scope.services.require(SystemCart.self)
                            world.cart(cart, isIn: scope.name)
                            cartID = cart.id
                            let again = try services.require(SystemCart.self)
                            let shared = cart === again ? "cart shared" : "cart not shared"
                            let reply: String
                            do {
                                reply = "reply \(try await messages.send(SystemAsk(), to: SystemStore.self))"
                            } catch {
                                reply = describe(error)
                            }
                            return "\(shared), \(reply)"
                        }
                    } catch {
                        body = describe(error)
                    }
                    return ("\(body) \(world.scopeLines(name))", cartID)
                }
            }
            return await group.reduce(into: [(line: String, cart: Int?)]()) { $0.append($1) }
        }
        let lines = Set(results.map(\.line))
        let carts = results.compactMap(\.cart)
        if Set(carts).count != carts.count { return "carts shared between scopes: \(carts)" }
        let inFlight = scopes.inFlight(.request).count
        if inFlight != 0 { return "\(inFlight) request scopes still in flight" }
        return lines.count == 1 ? "\(count)× \(lines.first ?? "")" : "tasks disagree: \(lines.sorted())"
    }

    /// Begins and activates a session, resolves its cart, and says how many sessions are in flight.
    static func beginSession(on host: ApplicationHost, world: SystemWorld) async -> String {
        guard let scopes = host.scopes else { return "no scopes" }
        let session = scopes.scope(.session, world.nextScopeName("s"), parent: nil)
        do {
            try await session.begin()
            try await session.activate()
        } catch {
            return describe(error)
        }
        world.sessionBegan(session)
        let cart: String
        do {
            world.cart(try session.services.require(SystemCart.self), isIn: session.name)
            cart = "cart"
        } catch {
            cart = describe(error)
        }
        return "\(cart) \(world.scopeLines(session.name)) in flight \(scopes.inFlight(.session).count)"
    }

    /// A reload's or release's changes in the model's words.
    static func describe(_ changes: ModuleChanges) -> String {
        let names = { (changes: [ModuleChanges.Change]) in
            changes.map { SystemModule.shortName($0.module) }
        }
        let on = changes.turnedOn.map { SystemModule.shortName($0) }
        return "changes off \(names(changes.turnedOff)) on \(on.sorted()) refused \(names(changes.refused))"
    }

    /// An error in the model's words.
    static func describe(_ error: any Error) -> String {
        do {
            throw error
        } catch let error as MessageError where error.code == .receiverFailed {
            let names = error.failures.map { SystemModule.shortName($0.receiver) }
            return "failed [\(names.joined(separator: ", "))]"
        } catch let error as MessageError {
            return "error \(error.code)"
        } catch let error as ServiceError {
            return "error \(error.code)"
        } catch let error as LifecycleError {
            // A refused registration or removal says why in its underlying manifest error; a reload's failing
            // hooks come with the changes it made.
            if let why = error.underlyingError as? ManifestError { return "error \(error.code)/\(why.code)" }
            if let changes = error.moduleChanges { return "error \(error.code) \(describe(changes))" }
            return "error \(error.code)"
        } catch let error as ScopeError {
            return "error \(error.code)"
        } catch {
            return "error \(error)"
        }
    }

    /// The shortest operation list found that still disagrees: operations are taken away one at a time.
    static func shrink(
        _ scenario: SystemScenario,
        mutation: SystemReference.Mutation? = nil
    ) async -> (scenario: SystemScenario, mismatch: SystemMismatch?) {
        var best = scenario
        var mismatch = try? await run(scenario, mutation: mutation).mismatch
        var index = 0
        while index < best.ops.count {
            var fewer = best
            fewer.ops.remove(at: index)
            if let found = try? await run(fewer, mutation: mutation).mismatch {
                best = fewer
                mismatch = found
            } else {
                index += 1
            }
        }
        return (best, mismatch)
    }
}
