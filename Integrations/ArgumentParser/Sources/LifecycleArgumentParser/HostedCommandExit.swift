import LifecycleCore
public import LifecycleHosting

/// How a hosted command's run ended, and the process exit code that says so.
///
/// The first row that applies decides:
///
/// | code | reason | when |
/// |---|---|---|
/// | 64 | (ArgumentParser) | a usage error: an unknown subcommand, option or flag, a bad value; nothing was built |
/// | 0 | (ArgumentParser) | `--help`, `--version`, `--generate-completion-script`; nothing was built |
/// | 1 | ``Reason/hostNotBuilt`` | the host could not be built (a `ManifestError`); also, before parsing, two modules that contribute one command name (``CommandHostingError``) |
/// | 3 | ``Reason/launchFailed`` | launch aborted (under the `abort` policy the host rolled back): the command never ran |
/// | 4 | ``Reason/deadlineExceeded`` | termination ran past `terminateDeadline`, or a hook past its budget under `.fail` |
/// | 128 + n | ``Reason/signalled(_:)`` | signal n (`SIGINT` 130, `SIGTERM` 143) cancelled the command, or cut termination short; the host terminated first |
/// | 6 | ``Reason/workFailed`` | a module's work failed past its policy and terminated the host; the command was cancelled (a module that posts `terminate` ends the host the same way: `willTerminate` runs first, then the command is cancelled, and the next rows decide) |
/// | the command's | ``Reason/commandFailed(_:)`` | the command threw: ArgumentParser's code for it, `1`, a thrown `ExitCode`'s, `64` for a `ValidationError` |
/// | 1 | ``Reason/terminateFailed`` | the command returned, but `willTerminate` hooks threw |
/// | 0 | ``Reason/completed`` | the command returned and every hook did |
///
/// These are `HostRunner`'s codes where the host decides (3, 4, 6, 128 + n), so one program's tools and
/// servers say the same thing, and ArgumentParser's where the command line or the command decides (0, 1, 64).
public struct HostedCommandExit: Sendable, CustomStringConvertible {
    /// Why a run ended.
    public enum Reason: Sendable, Hashable {
        /// The command returned, and so did every `willTerminate` hook.
        case completed
        /// The command threw; the code is ArgumentParser's for the error (`exitCode(for:)`).
        case commandFailed(Int32)
        /// The host could not be built.
        case hostNotBuilt
        /// Launch aborted and the host rolled back; the command never ran.
        case launchFailed
        /// The command returned, but `willTerminate` hooks threw.
        case terminateFailed
        /// Termination ran past a time limit.
        case deadlineExceeded
        /// A module's work failed past its policy and terminated the host.
        case workFailed
        /// The signal cancelled the command, or cut termination short.
        case signalled(UnixSignal)
    }

    /// Why the run ended.
    public let reason: Reason
    /// The error behind the reason, when there is one: what the command threw, or the host's error.
    public let error: (any Error)?

    init(_ reason: Reason, error: (any Error)? = nil) {
        self.reason = reason
        self.error = error
    }

    /// The process exit code of ``reason`` (see the table above).
    public var code: Int32 {
        switch reason {
        case .completed: return 0
        case .commandFailed(let code): return code
        case .hostNotBuilt, .terminateFailed: return 1
        case .launchFailed: return 3
        case .deadlineExceeded: return 4
        case .workFailed: return 6
        case .signalled(let signal): return 128 + signal.rawValue
        }
    }

    /// `exit 3 (launch failed): …`, with the error when there is one.
    public var description: String {
        let name: String
        switch reason {
        case .completed: name = "completed"
        case .commandFailed: name = "the command failed"
        case .hostNotBuilt: name = "the host could not be built"
        case .launchFailed: name = "launch failed"
        case .terminateFailed: name = "terminate failed"
        case .deadlineExceeded: name = "deadline exceeded"
        case .workFailed: name = "work failed"
        case .signalled(let signal): name = "stopped by \(signal)"
        }
        return "exit \(code) (\(name))" + (error.map { ": \($0)" } ?? "")
    }

    /// The exit of a run, from what happened in it; the first row of the table that applies.
    ///
    /// - Parameters:
    ///   - launchAborted: what launch threw when it aborted (the host terminated), else `nil`.
    ///   - signal: the first `SIGINT` or `SIGTERM`, if one arrived before termination began.
    ///   - interruptedBy: the signal that cut termination short, if one did.
    ///   - command: what the command threw, with ArgumentParser's exit code for it, if it threw.
    ///   - termination: what `terminate()` threw, if it threw.
    ///   - workFailure: the host's `terminationFailure`: work that failed past its policy.
    static func decide(
        launchAborted: (any Error)?,
        signal: UnixSignal?,
        interruptedBy: UnixSignal?,
        command: (error: any Error, code: Int32)?,
        termination: (error: any Error, code: LifecycleError.Code)?,
        workFailure: (any Error)?
    ) -> HostedCommandExit {
        if let launchAborted { return HostedCommandExit(.launchFailed, error: launchAborted) }
        if let termination, termination.code == .deadlineExceeded || termination.code == .timedOut {
            return HostedCommandExit(.deadlineExceeded, error: termination.error)
        }
        if let stopped = interruptedBy ?? signal {
            return HostedCommandExit(.signalled(stopped), error: termination?.error)
        }
        if let workFailure { return HostedCommandExit(.workFailed, error: workFailure) }
        if let command { return HostedCommandExit(.commandFailed(command.code), error: command.error) }
        if let termination { return HostedCommandExit(.terminateFailed, error: termination.error) }
        return HostedCommandExit(.completed)
    }
}
