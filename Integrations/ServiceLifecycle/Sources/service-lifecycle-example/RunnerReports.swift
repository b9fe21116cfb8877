import LifecycleCore
import LifecycleHosting

extension Transcript {
    /// Writes a `HostRunner` report as the ServiceGroup mode's services write theirs, for the work mode:
    /// `readiness: draining` at the first terminating signal, `signal SIGUSR1: background` (or
    /// `foreground`) when a background signal arrives, then `signal SIGUSR1: host background`, or
    /// `signal SIGUSR1: refused: <code>`, when its request is through. Other reports go to the log only.
    func write(_ report: HostRunner.Report, host: ApplicationHost, readiness: HostReadiness) {
        switch report {
        case .received(_, .terminate), .received(_, .interrupt):
            // The runner drains right after this report; draining here first makes the line true as soon as
            // it is read. A second terminating signal finds it draining already.
            guard !readiness.isDraining else { return }
            readiness.beginDraining()
            write("readiness: draining")
        case .received(let signal, let action) where action == .enterBackground || action == .enterForeground:
            write("signal \(signal): \(action)")  // `background`, `foreground`
        case .handled(let signal, _, let error?):
            write("signal \(signal): refused: \(error.code)")
        case .handled(let signal, .enterBackground, nil), .handled(let signal, .enterForeground, nil):
            write("signal \(signal): host \(host.state)")
        default:
            break
        }
    }
}
