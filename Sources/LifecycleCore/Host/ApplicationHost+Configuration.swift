#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ApplicationHost {
    /// How an ``ApplicationHost`` reports deliveries and handles failures.
    public struct Configuration: Sendable {
        /// What a host does when a launch hook throws.
        public struct LaunchFailurePolicy: Hashable, Sendable, CustomStringConvertible {
            private enum Base: String, Hashable, Sendable {
                case `continue`
                case abort
            }

            private let base: Base

            /// Deliver launch to everyone anyway, become active, then throw
            /// ``LifecycleError/Code/hookFailed`` listing every failure. The default.
            public static let `continue` = LaunchFailurePolicy(base: .continue)
            /// Stop launch at the first launch hook that throws. Every other participant that launch had
            /// reached receives `willTerminate` in reverse order (a rollback), whether or not it implements a
            /// launch hook; the failing participant and those after it do not. The host ends `terminated`
            /// and throws ``LifecycleError/Code/launchAborted``.
            public static let abort = LaunchFailurePolicy(base: .abort)

            public var description: String { base.rawValue }
        }

        /// What a host does when a hook runs past its time budget.
        public struct TimeoutPolicy: Hashable, Sendable, CustomStringConvertible {
            private enum Base: String, Hashable, Sendable {
                case degrade
                case fail
            }

            private let base: Base

            /// Abandon the slow hook, mark its module degraded (``ApplicationHost/degradedModules``), and go
            /// on with the next participant. The timeout is reported like a hook that threw, as a
            /// ``HookTimeout`` in ``LifecycleError/Code/hookFailed``. The default.
            public static let degrade = TimeoutPolicy(base: .degrade)
            /// Abandon the slow hook and stop the request there: later participants and events of the
            /// request are not delivered, and it throws ``LifecycleError/Code/timedOut``. In launch, this
            /// aborts with a rollback.
            public static let fail = TimeoutPolicy(base: .fail)

            public var description: String { base.rawValue }
        }

        /// What happens when a launch hook throws. Defaults to ``LaunchFailurePolicy/continue``.
        public var launchFailurePolicy: LaunchFailurePolicy

        /// Whether `didFinishLaunching` waits for the concurrent warm-up stage. `true` by default; with
        /// `false`, warm-up runs after launch returns, its failures go to ``onUnobservedError``, and
        /// ``ApplicationHost/waitUntilReady(file:line:)`` tells when it is over.
        public var didFinishLaunchingWaitsForWarmUp: Bool

        /// The clock time limits are measured on. `ContinuousClock` by default; tests pass a virtual clock
        /// (`LifecycleTesting.VirtualClock`) so they take no real time.
        public var clock: any Clock<Duration>
        /// The budget of every hook unless its event or its module sets one; `nil` for no limit. 30 s by
        /// default.
        public var hookBudget: Duration?
        /// Budgets for particular events, overriding ``hookBudget``. A module's own budget
        /// (``TimeBudgetedModule``) overrides both.
        public var eventBudgets: [LifecycleEvent: Duration]
        /// What happens when a hook runs past its budget. Defaults to ``TimeoutPolicy/degrade``.
        public var timeoutPolicy: TimeoutPolicy
        /// The most `terminate()` may take in all, so a hanging module cannot keep the process alive:
        /// past it, the hooks still to run are abandoned, the host is `terminated`, and it throws
        /// ``LifecycleError/Code/deadlineExceeded``. 60 s by default; `nil` for none.
        public var terminateDeadline: Duration?

        /// When a module whose hooks keep failing is quarantined: taken out of delivery, as a reload switching
        /// it off would, until a reload or ``ApplicationHost/releaseQuarantine(_:file:line:)`` brings it back.
        /// ``QuarantinePolicy/standard`` (5 failures within 60 s) by default; `nil` for never, unless a module
        /// sets its own (``QuarantinePolicyModule``).
        public var quarantine: QuarantinePolicy?

        /// Told about every hook call as it completes, with its duration and result.
        public var onDelivery: DeliveryObserver?

        /// Follow the host's requests, events, hook calls, states and module changes, in this order: the
        /// seam for tracing and metrics (``LifecycleInstrument``). None by default, and then they cost
        /// nothing.
        public var instruments: [any LifecycleInstrument]

        /// How many deliveries ``ApplicationHost/journal`` keeps (the oldest are dropped first). `0`
        /// turns the journal off; with no journal and no ``onDelivery``, delivery skips timing altogether.
        public var journalCapacity: Int

        /// Receives the errors of requests nobody awaits: those posted with ``EventEmitter``. The default
        /// writes each to standard error, so no failure goes unseen.
        public var onUnobservedError: @Sendable (LifecycleError) -> Void

        /// Faults to inject in place of hook, handler and work calls: set only by `LifecycleTesting`'s random
        /// lifecycles (``FaultInjection``). `nil` in every production host.
        package var faultInjection: FaultInjection? = nil

        /// Creates a configuration.
        public init(
            launchFailurePolicy: LaunchFailurePolicy = .continue,
            didFinishLaunchingWaitsForWarmUp: Bool = true,
            clock: any Clock<Duration> = ContinuousClock(),
            hookBudget: Duration? = .seconds(30),
            eventBudgets: [LifecycleEvent: Duration] = [:],
            timeoutPolicy: TimeoutPolicy = .degrade,
            terminateDeadline: Duration? = .seconds(60),
            quarantine: QuarantinePolicy? = .standard,
            onDelivery: DeliveryObserver? = nil,
            instruments: [any LifecycleInstrument] = [],
            journalCapacity: Int = 1_024,
            onUnobservedError: @escaping @Sendable (LifecycleError) -> Void = Configuration.writeToStandardError
        ) {
            self.launchFailurePolicy = launchFailurePolicy
            self.didFinishLaunchingWaitsForWarmUp = didFinishLaunchingWaitsForWarmUp
            self.clock = clock
            self.hookBudget = hookBudget
            self.eventBudgets = eventBudgets
            self.timeoutPolicy = timeoutPolicy
            self.terminateDeadline = terminateDeadline
            self.quarantine = quarantine
            self.onDelivery = onDelivery
            self.instruments = instruments
            self.journalCapacity = journalCapacity
            self.onUnobservedError = onUnobservedError
        }

        /// The default ``onUnobservedError``: writes the error's description to standard error.
        public static let writeToStandardError: @Sendable (LifecycleError) -> Void = { error in
            printWarning("\(error)")
        }
    }
}

/// Writes `message` and a newline to standard error, after `warning: `.
package func printWarning(_ message: String) {
    printToStandardError("warning: \(message)")
}

/// Writes `line` and a newline to standard error, unbuffered.
package func printToStandardError(_ line: String) { writeLine(line, to: 2) }

/// Writes `line` and a newline to standard output, unbuffered: in one `write` call for a short line, so
/// lines from several threads do not interleave.
package func printToStandardOutput(_ line: String) { writeLine(line, to: 1) }

private func writeLine(_ line: String, to descriptor: Int32) {
    var line = line + "\n"
    line.withUTF8 { bytes in
        var remaining = UnsafeRawBufferPointer(bytes)
        while !remaining.isEmpty {
            let written = write(descriptor, remaining.baseAddress, remaining.count)
            guard written > 0 else { return }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }
}
