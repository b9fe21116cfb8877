import LifecycleCore
import LifecycleTesting
import Testing

/// One operation under a deadline: its result, or the escalation (ask, cancel, abandon), on a virtual
/// clock.
@Suite("Supervised operations: result, timeout, graceful stop, cancellation, abandonment", .timeLimit(.minutes(1)))
struct SupervisedTests {
    @Test("An operation that finishes in time settles with its result, and disarms its deadline")
    func finishesInTime() async throws {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let outcome = await watchdog.supervise(until: clock.now.advanced(by: .seconds(1))) { 42 }
        guard case .finished(let result, let step) = outcome else {
            Issue.record("expected a result, got \(outcome)")
            return
        }
        #expect(try result.get() == 42)
        #expect(step == .none)
        #expect(watchdog.armedCount == 0)
    }

    @Test("A throwing operation settles with its error")
    func throwsInTime() async {
        struct Broken: Error {}
        let watchdog = Watchdog(clock: VirtualClock())
        let outcome = await watchdog.supervise(until: nil) { () async throws -> Int in throw Broken() }
        #expect(throws: Broken.self) { try outcome.result?.get() }
    }

    @Test("Past its deadline, an operation is cancelled and abandoned at once; its late result is dropped")
    func abandonedAtTheDeadline() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let started = OneShot<Void>()
        let cancelled = OneShot<Void>()
        let release = OneShot<Void>()
        let supervised = Task {
            await watchdog.supervise(until: clock.now.advanced(by: .seconds(5))) { () async -> Int in
                started.settle(())
                await withTaskCancellationHandler {
                    await release.value()  // ignores cancellation: it hangs until released
                } onCancel: {
                    cancelled.settle(())
                }
                return 1
            }
        }
        await started.value()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(!cancelled.isSettled)
        clock.advance(by: .seconds(1))
        #expect(await supervised.value.isAbandoned)
        await cancelled.value()  // the abandoned operation is cancelled (right after it is abandoned)
        release.settle(())
    }

    @Test("Graceful: asked to stop at the deadline, it stops within its grace and is never cancelled")
    func gracefulStop() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let stop = OneShot<Void>()
        let started = OneShot<Void>()
        let escalation = Escalation(graceful: ({ stop.settle(()) }, .seconds(10)), cancellationGrace: .seconds(5))
        let supervised = Task {
            await watchdog.supervise(until: clock.now.advanced(by: .seconds(1)), escalation: escalation) {
                started.settle(())
                await stop.value()  // runs until asked to stop
                return Task.isCancelled
            }
        }
        await started.value()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        let outcome = await supervised.value
        guard case .finished(let result, let step) = outcome else {
            Issue.record("expected a result, got \(outcome)")
            return
        }
        #expect((try? result.get()) == false, "not cancelled")
        #expect(step == .signalled)
    }

    @Test("Graceful, ignored: cancelled after the grace, it returns within the cancellation grace")
    func cancelledAfterTheGrace() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let signals = Recorded<Duration>()
        let started = OneShot<Void>()
        let escalation = Escalation(
            graceful: ({ signals.append(clock.now.offset) }, .seconds(10)),
            cancellationGrace: .seconds(5)
        )
        let supervised = Task {
            await watchdog.supervise(until: clock.now.advanced(by: .seconds(1)), escalation: escalation) {
                started.settle(())
                // Ignores the signal; returns once cancelled.
                let never = OneShot<Void>()
                await never.value(orOnCancel: {})
                return clock.now.offset
            }
        }
        await started.value()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await waitUntil { signals.values.count == 1 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(9))
        #expect(!(await hasFinished(supervised)), "10 s: still in its grace")
        clock.advance(by: .seconds(1))
        let outcome = await supervised.value
        guard case .finished(let result, let step) = outcome else {
            Issue.record("expected a result, got \(outcome)")
            return
        }
        #expect((try? result.get()) == .seconds(11), "cancelled at 1 s + 10 s of grace")
        #expect(step == .cancelled)
        #expect(signals.values == [.seconds(1)])
    }

    @Test("An operation that ignores cancellation too is abandoned after the cancellation grace")
    func abandonedAfterTheCancellationGrace() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let release = OneShot<Void>()
        let started = OneShot<Void>()
        let escalation = Escalation(cancellationGrace: .seconds(3))
        let supervised = Task {
            await watchdog.supervise(until: clock.now.advanced(by: .seconds(2)), escalation: escalation) {
                started.settle(())
                await release.value()
            }
        }
        await started.value()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(!(await hasFinished(supervised)), "4 s: cancelled, still within its cancellation grace")
        clock.advance(by: .seconds(1))
        #expect(await supervised.value.isAbandoned)
        release.settle(())
    }

    @Test("Cancelling the waiting task cancels the operation; what it returns then settles it")
    func waiterCancelled() async throws {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let started = OneShot<Void>()
        let supervised = Task {
            await watchdog.supervise(until: clock.now.advanced(by: .seconds(5))) {
                started.settle(())
                let never = OneShot<Void>()
                await never.value(orOnCancel: {})
                return Task.isCancelled
            }
        }
        await started.value()
        supervised.cancel()
        #expect(try await supervised.value.result?.get() == true)
    }

    @Test("Cancelling the waiting task of an operation that ignores it: abandoned at the deadline still")
    func waiterCancelledOperationHangs() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let release = OneShot<Void>()
        let started = OneShot<Void>()
        let supervised = Task {
            await watchdog.supervise(until: clock.now.advanced(by: .seconds(5))) {
                started.settle(())
                await release.value()
            }
        }
        await started.value()
        supervised.cancel()
        await clock.waitForSleepers(1)
        #expect(!(await hasFinished(supervised)))
        clock.advance(by: .seconds(5))
        #expect(await supervised.value.isAbandoned)
        release.settle(())
    }

    @Test("Never abandoned: a cancelled waiter still waits for the operation, which sees the cancellation")
    func neverAbandoned() async throws {
        let watchdog = Watchdog(clock: VirtualClock())
        let started = OneShot<Void>()
        let supervised = Task {
            await watchdog.supervise(until: nil, escalation: Escalation(cancellationGrace: nil)) {
                started.settle(())
                let never = OneShot<Void>()
                await never.value(orOnCancel: {})
                return Task.isCancelled
            }
        }
        await started.value()
        supervised.cancel()
        let outcome = await supervised.value
        #expect(try outcome.result?.get() == true)
    }
}
