import LifecycleCore
import LifecycleTesting
import Testing

/// The package's one timer: deadlines armed on a clock, one task watching them all.
@Suite("Watchdog: deadlines on a virtual clock, one task for all", .timeLimit(.minutes(1)))
struct WatchdogTests {
    @Test("A deadline fires once it has passed, not before, with the clock's time")
    func firesAtItsDeadline() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let fired = OneShot<VirtualClock.Instant>()
        watchdog.arm(after: .seconds(10)) { now in
            fired.settle(now)
            return nil
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(9))
        #expect(!fired.isSettled)
        #expect(watchdog.armedCount == 1)
        clock.advance(by: .seconds(2))
        #expect(await fired.value() == VirtualClock.Instant(offset: .seconds(11)))
        await waitUntil { watchdog.armedCount == 0 && clock.sleeperCount == 0 }
    }

    @Test("Deadlines that pass together fire earliest first, then in the order they were armed")
    func orderOfDeadlinesPassingTogether() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let order = Recorded<String>()
        let done = OneShot<Void>()
        for (name, seconds) in [("c", 3), ("a1", 1), ("b", 2), ("a2", 1)] {
            watchdog.arm(after: .seconds(seconds)) { _ in
                let count = order.append(name)
                if count == 4 { done.settle(()) }
                return nil
            }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        await done.value()
        #expect(order.values == ["a1", "a2", "b", "c"])
    }

    @Test("A disarmed deadline never fires; the task ends once nothing is armed")
    func disarmed() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let early = watchdog.arm(after: .seconds(1)) { _ in
            Issue.record("a disarmed deadline fired")
            return nil
        }
        let fired = OneShot<Void>()
        watchdog.arm(after: .seconds(2)) { _ in
            fired.settle(())
            return nil
        }
        watchdog.disarm(early)
        #expect(watchdog.armedCount == 1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        await fired.value()
        await waitUntil { clock.sleeperCount == 0 }
        #expect(watchdog.armedCount == 0)
    }

    @Test("A deadline that moves is read when it is due, and fires at the later time it names")
    func movingDeadline() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let checks = Recorded<Duration>()
        let expired = OneShot<Duration>()
        watchdog.arm(after: .seconds(10)) { now in
            let count = checks.append(now.offset)
            // The work it watches moved on at 4 s: due at 14 s, not 10 s.
            if count == 1 { return VirtualClock.Instant(offset: .seconds(14)) }
            expired.settle(now.offset)
            return nil
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(11))
        await waitUntil { checks.values.count == 1 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(!expired.isSettled, "13 s: before the moved deadline")
        clock.advance(by: .seconds(1))
        #expect(await expired.value() == .seconds(14))
        #expect(checks.values == [.seconds(11), .seconds(14)])
    }

    @Test("A deadline earlier than the one the task sleeps until wakes it in time")
    func earlierDeadlineArmedWhileSleeping() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let late = OneShot<Void>()
        watchdog.arm(after: .seconds(60)) { _ in
            late.settle(())
            return nil
        }
        await clock.waitForSleepers(1)
        let soon = OneShot<Duration>()
        watchdog.arm(after: .seconds(5)) { now in
            soon.settle(now.offset)
            return nil
        }
        // The task sleeping until 60 s is replaced by one sleeping until 5 s.
        await waitUntil { clock.sleeperCount == 1 && clock.totalSleepCalls == 2 }
        clock.advance(by: .seconds(5))
        #expect(await soon.value() == .seconds(5))
        #expect(!late.isSettled)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(55))
        await late.value()
    }

    @Test("Ten thousand deadlines armed and disarmed leave nothing behind")
    func bulkDisarm() async {
        let clock = VirtualClock()
        let watchdog = Watchdog(clock: clock)
        let tokens = (0..<10_000).map { index in
            watchdog.arm(after: .seconds(1 + index % 7)) { _ in
                Issue.record("a disarmed deadline fired")
                return nil
            }
        }
        for token in tokens.dropLast() { watchdog.disarm(token) }
        #expect(watchdog.armedCount == 1)
        await clock.waitForSleepers(1)
        watchdog.disarm(tokens[tokens.count - 1])
        #expect(watchdog.armedCount == 0)
        // The last one disarmed, nothing sleeps on the clock: a test waiting for a sleeper waits for its own.
        await waitUntil { clock.sleeperCount == 0 }
        clock.advance(by: .seconds(10))
    }

    @Test("On the continuous clock, a deadline fires after its time has passed")
    func continuousClock() async {
        let watchdog = Watchdog(clock: ContinuousClock())
        let armed = ContinuousClock.now
        let fired = OneShot<ContinuousClock.Instant>()
        watchdog.arm(after: .milliseconds(20)) { now in
            fired.settle(now)
            return nil
        }
        #expect(armed.duration(to: await fired.value()) >= .milliseconds(20))
    }
}

/// Yields until `condition` holds.
func waitUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}

/// Values recorded from several tasks, in the order they came.
final class Recorded<Value: Sendable>: Sendable {
    private let state = Locked<[Value]>([])

    /// Appends `value`; returns how many there are now.
    @discardableResult
    func append(_ value: Value) -> Int {
        state.withLock { values in
            values.append(value)
            return values.count
        }
    }

    var values: [Value] { state.withLock { $0 } }
}
