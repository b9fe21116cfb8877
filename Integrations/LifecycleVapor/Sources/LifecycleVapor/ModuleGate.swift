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

    let module: String
    private let phase = Atomic<UInt8>(Phase.launching.rawValue)

    init(module: String) {
        self.module = module
    }

    func open(failed: Bool) {
        phase.store(failed ? Phase.failed.rawValue : Phase.live.rawValue, ordering: .releasing)
    }

    /// Why a request may not reach the module's routes now, or `nil` when it may.
    func refusal(in host: ApplicationHost) -> Abort? {
        switch Phase(rawValue: phase.load(ordering: .acquiring)) ?? .launching {
        case .launching:
            return Abort(.serviceUnavailable, reason: "\(module) is launching")
        case .failed:
            return Abort(.serviceUnavailable, reason: "\(module) failed to launch")
        case .live:
            break
        }
        if host.quarantinedModules.contains(where: { $0.module == module }) {
            return Abort(.serviceUnavailable, reason: "\(module) is quarantined")
        }
        if !host.participants.contains(where: { $0.name == module }) {
            return Abort(.notFound, reason: "\(module) is switched off")
        }
        return nil
    }
}
