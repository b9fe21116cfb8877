import LifecycleCore
import Synchronization
import Vapor

/// Whether one module's routes serve: closed until the module's launch hooks succeeded, open after, and
/// closed again while the module is quarantined or switched off.
final class ModuleGate: Sendable {
    enum Phase: UInt8 {
        /// The host has not finished launching.
        case launching = 0
        /// The module's launch hooks succeeded.
        case live = 1
        /// A launch hook of the module threw (under the `continue` policy the host serves on without it).
        case failed = 2
    }

    /// The module, and its name for the refusals' reasons.
    let module: any LifecycleModule.Type
    let name: String
    private let phase = Atomic<UInt8>(Phase.launching.rawValue)

    init(_ module: any LifecycleModule.Type) {
        self.module = module
        name = module.moduleName
    }

    func open(failed: Bool) {
        phase.store(failed ? Phase.failed.rawValue : Phase.live.rawValue, ordering: .releasing)
    }

    /// Why a request may not reach the module's routes now, or `nil` when it may.
    func refusal(in host: ApplicationHost) -> Abort? {
        switch Phase(rawValue: phase.load(ordering: .acquiring)) ?? .launching {
        case .launching:
            return Abort(.serviceUnavailable, reason: "\(name) is launching")
        case .failed:
            return Abort(.serviceUnavailable, reason: "\(name) failed to launch")
        case .live:
            break
        }
        // Quarantine is asked first: a quarantined module is refused (503) from the moment it is quarantined,
        // while its teardown hooks still run. Membership is one table lookup, not a scan of the participants.
        if host.quarantinedModules.contains(where: { $0.module == name }) {
            return Abort(.serviceUnavailable, reason: "\(name) is quarantined")
        }
        guard host.participant(for: module) != nil else {
            return Abort(.notFound, reason: "\(name) is switched off")
        }
        return nil
    }
}
