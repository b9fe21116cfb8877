import LifecycleCore
import LifecycleHosting

extension Transcript {
    /// Writes a `HostRunner` report (from the runner in the work mode, from `SignalRequests` in a ServiceGroup):
    /// `readiness: draining` at the first terminating signal; `signal SIGUSR1: background` (or `foreground`,
    /// `reload`) when a signal arrives, then `signal SIGUSR1: host background`, `signal SIGHUP: reloaded`, or
    /// `signal SIGUSR1: refused: <code>`, when its request is through; `signal SIGHUP: ignored: <why>` for
    /// one that came once termination had begun; `modules changed: …` when a reload switched modules. Other
    /// reports go to the log only.
    func write(_ report: HostRunner.Report, host: ApplicationHost, readiness: HostReadiness) {
        switch report {
        case .received(_, .terminate), .received(_, .interrupt):
            // The runner drains right after this report; draining here first makes the line true as soon as
            // it is read. A second terminating signal finds it draining already.
            guard !readiness.isDraining else { return }
            readiness.beginDraining()
            write("readiness: draining")
        case .received(let signal, let action)
        where action == .enterBackground || action == .enterForeground || action == .reload:
            write("signal \(signal): \(action)")  // `background`, `foreground`, `reload`
        case .handled(let signal, _, let error?):
            write("signal \(signal): refused: \(error.code)")
        case .handled(let signal, .reload, nil):
            write("signal \(signal): reloaded")
        case .handled(let signal, .enterBackground, nil), .handled(let signal, .enterForeground, nil):
            write("signal \(signal): host \(host.state)")
        case .ignored(let signal, let reason):
            write("signal \(signal): ignored: \(reason)")
        case .modulesChanged(let changes):
            write("modules changed: \(changes)")
        default:
            break
        }
    }
}
