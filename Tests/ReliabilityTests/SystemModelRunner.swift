import Foundation
import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleRouting
import LifecycleServices
import LifecycleTesting

/// A scenario of the whole-system model: its seed and operations.
struct SystemScenario: Sendable, CustomStringConvertible {
    let seed: UInt64
    var ops: [SystemOp]

    static let length = 24

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
                .withMessages().withRouting(interceptors: [SystemGuard.self, SystemTally.self]),
            launchOptions: options,
            configuration: configuration
        )
        var reference = SystemReference(mutation: mutation)
        var outcomes: [String] = []
        for (index, op) in scenario.ops.enumerated() {
            let actual = await perform(op, on: host, world: world)
            // A quarantine runs right after the request that made it due, in the host's queue.
            if op.isHostRequest { try? await host.waitUntilIdle() }
            let predicted = reference.apply(op)
            outcomes.append(predicted)
            if actual != predicted {
                return (outcomes, SystemMismatch(index: index, op: op, host: actual, model: predicted))
            }
        }
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
            case .release(let module): try await host.releaseQuarantine(module.type)
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
        } catch let error as MessageError where error.code == .receiverFailed {
            let names = error.failures.map { SystemModule.named($0.receiver)?.rawValue ?? $0.receiver }
            return "failed [\(names.joined(separator: ", "))]"
        } catch let error as MessageError {
            return "error \(error.code)"
        } catch let error as ServiceError {
            return "error \(error.code)"
        } catch let error as LifecycleError {
            // A refused registration or removal says why in its underlying manifest error.
            if let why = error.underlyingError as? ManifestError { return "error \(error.code)/\(why.code)" }
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
