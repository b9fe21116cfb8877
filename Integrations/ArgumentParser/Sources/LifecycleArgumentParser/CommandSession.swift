import LifecycleCore
import LifecycleHosting

/// One hosted command's run on its host: launch, the command, terminate, in that order, with the stop signals
/// and the host's own termination in between. The signals come as a stream, so tests drive a session without
/// signalling the test process.
struct CommandSession: Sendable {
    let host: ApplicationHost
    /// ArgumentParser's exit code for what the command threw (the root's `exitCode(for:)`).
    let exitCode: @Sendable (any Error) -> Int32

    private enum Step: Sendable {
        case signal(UnixSignal)
        case launched(LifecycleError?)
        case commandEnded((any Error)?)
        case hostTerminated
        case terminated(LifecycleError?)
    }

    private struct State {
        var launched = false
        var launchAborted: LifecycleError?
        var commandRunning = false
        var commandError: (any Error)?
        var signal: UnixSignal?
        var interruptedBy: UnixSignal?
        var terminating = false
        var hostTerminated = false
    }

    /// Runs `command` on the host; returns how the run ended once the host has terminated (or never launched).
    func run(_ command: any HostedCommand, signals: AsyncStream<UnixSignal>) async -> HostedCommandExit {
        let (steps, step) = AsyncStream<Step>.makeStream()
        // Finished to ask the command to stop: its task is then cancelled.
        let (stopRequests, stopCommand) = AsyncStream<Never>.makeStream()
        let host = self.host
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals { step.yield(.signal(signal)) }
            }
            group.addTask {
                do {
                    try await host.waitUntilTerminated()
                    step.yield(.hostTerminated)
                } catch {
                    // Cancelled: the run is over.
                }
            }
            group.addTask {
                do throws(LifecycleError) {
                    try await host.launch()
                    step.yield(.launched(nil))
                } catch {
                    step.yield(.launched(error))
                }
            }

            var state = State()
            var termination: LifecycleError?
            func terminate(_ group: inout TaskGroup<Void>) {
                guard !state.terminating else { return }
                state.terminating = true
                group.addTask {
                    do throws(LifecycleError) {
                        try await host.terminate()
                        step.yield(.terminated(nil))
                    } catch let error where error.code == .invalidTransition && host.state == .terminated {
                        step.yield(.terminated(nil))  // the host terminated itself before our request reached it
                    } catch {
                        step.yield(.terminated(error))
                    }
                }
            }

            loop: for await next in steps {
                switch next {
                case .signal(let signal):
                    if state.signal == nil {
                        state.signal = signal
                        if state.commandRunning {
                            stopCommand.finish()  // terminate once the command has returned
                        } else if state.launched {
                            terminate(&group)
                        }  // still launching: the host never interrupts a request; terminate once it returns
                    } else if state.interruptedBy == nil {
                        // A second one cuts termination short, in progress or still to come, as a second Ctrl-C
                        // does under HostRunner: the hook running finishes, no further one starts.
                        state.interruptedBy = signal
                        host.interruptTermination()
                    }

                case .launched(let error):
                    state.launched = true
                    if let error, host.state == .terminated {
                        state.launchAborted = error
                        break loop
                    }
                    if let error {
                        // Under `.continue` the host launched anyway: said, and the command runs.
                        printToStandardError("lifecycle: launch reported failures: \(error)")
                    }
                    if state.signal != nil || state.hostTerminated {
                        terminate(&group)
                    } else {
                        state.commandRunning = true
                        group.addTask { step.yield(.commandEnded(await Self.perform(command, on: host, stopRequests))) }
                    }

                case .commandEnded(let error):
                    state.commandRunning = false
                    state.commandError = error
                    terminate(&group)

                case .hostTerminated:
                    state.hostTerminated = true
                    // The host terminated itself (a module posted terminate, or work failed past its policy):
                    // the command stops; `terminate()` then finds the host terminated.
                    if state.commandRunning { stopCommand.finish() }

                case .terminated(let error):
                    termination = error
                    break loop
                }
            }
            stopCommand.finish()
            step.finish()
            group.cancelAll()
            let exit = HostedCommandExit.decide(
                launchAborted: state.launchAborted,
                signal: state.signal,
                interruptedBy: state.interruptedBy,
                command: state.commandError.map { (error: $0, code: exitCode($0)) },
                termination: termination.map { (error: $0, code: $0.code) },
                workFailure: host.terminationFailure
            )
            if let termination, case .commandFailed = exit.reason {
                // The exit reports the command's error; the hooks' failure is said too, not dropped.
                printToStandardError("lifecycle: terminate failed: \(termination)")
            }
            return exit
        }
    }

    /// Runs the command until it returns or a stop is requested, which cancels it; returns what it threw.
    private static func perform(
        _ command: any HostedCommand,
        on host: ApplicationHost,
        _ stopRequests: AsyncStream<Never>
    ) async -> (any Error)? {
        await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                var command = command
                do {
                    try await command.run(on: host)
                    return .returned(nil)
                } catch {
                    return .returned(error)
                }
            }
            group.addTask {
                for await _ in stopRequests {}
                return .stopRequested
            }
            while let outcome = await group.next() {
                group.cancelAll()  // the command is cancelled, or the wait for a stop ends
                if case .returned(let error) = outcome { return error }
            }
            return nil
        }
    }

    private enum Outcome: Sendable {
        case returned((any Error)?)
        case stopRequested
    }
}
