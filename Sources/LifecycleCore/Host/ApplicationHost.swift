#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// The host's public face: its state, the event API and waiting. The rest of the actor lives by concept:
// Host/ApplicationHost+Queueing.swift (one FIFO, reentrancy), Host/ApplicationHost+Processing.swift (a
// request, step by step, per HostStateMachine), WarmUp/ (the concurrent stage), Supervision/ (budgets,
// deadlines, termination control) and Errors/. Docs/Architecture.md draws the whole path.

/// Emits the application's lifecycle events to the program's delegate and its modules, and guards the
/// application's state.
///
/// Create a host from a manifest with `ApplicationHost(manifest:delegate:launchOptions:configuration:)`
/// (in `LifecycleProxy`), then drive it:
///
/// ```swift
/// let host = try ApplicationHost(manifest: .app, delegate: AppDelegate())
/// try await host.launch()             // willFinishLaunching, setup, initialize, warmUp, didFinishLaunching,
///                                     // didBecomeActive
/// try await host.enterBackground()    // willResignActive, didEnterBackground
/// try await host.enterForeground()    // willEnterForeground, didBecomeActive
/// try await host.terminate()          // willTerminate
/// ```
///
/// ## State
/// ``state`` moves `notRunning → launching → active ⇄ inactive ⇄ background → terminating → terminated`.
/// A request that is not allowed in the current state throws ``LifecycleError/Code/invalidTransition``,
/// naming the state and the request, and delivers nothing.
///
/// ## Ordering
/// Every request — from any task, awaited or posted from a hook — joins one FIFO queue. Requests are
/// delivered one at a time, in the order they were emitted; each event reaches every participant before
/// the next event starts. The state is checked when a request reaches the front of the queue, so a
/// request is judged against the state that the requests before it left.
///
/// From inside a hook, emit with ``LifecycleContext/events``: the request is queued behind the current
/// request and the hook goes on. Awaiting a host method from inside one of its own hooks would deadlock,
/// so it throws ``LifecycleError/Code/reentrantCall`` instead.
///
/// ## Failures
/// A hook that throws does not stop delivery to the others. When the request completes, the host throws
/// one ``LifecycleError/Code/hookFailed`` error listing every failure; the state change has happened.
/// ``Configuration/launchFailurePolicy`` can make a launch failure abort the launch instead.
///
/// Cancelling a task that awaits a host method stops the wait (it throws
/// ``LifecycleError/Code/cancelled``) but does not withdraw the request: it is delivered anyway.
public actor ApplicationHost {
    /// The host's settings.
    public nonisolated let configuration: Configuration
    /// The context every participant receives.
    public nonisolated let context: LifecycleContext
    /// Every delivery this host made, bounded by ``Configuration/journalCapacity`` (`nil` when that is 0).
    public nonisolated let journal: DeliveryJournal?
    /// What delivery reports each hook call to: the journal, then ``Configuration/onDelivery``.
    nonisolated let observer: DeliveryObserver?
    /// The journal when it is the only listener: then the host records into it directly (see
    /// `DeliveryJournal.record(_:of:at:start:duration:result:error:)`), without a ``DeliveryRecord``.
    nonisolated let journalOnly: DeliveryJournal?
    /// The configured clock, opened once.
    nonisolated let time: ClockFunctions
    /// Watches every time limit of the host and of what is built on it, on the configured clock.
    nonisolated var watchdog: Watchdog<HostClock> { context.watchdog.base }
    /// ``Configuration/instruments``, read once.
    nonisolated let instruments: [any LifecycleInstrument]
    /// What the instruments captured in the task that asked for the request in progress, one per
    /// instrument; empty without instruments or a request.
    var requestContext: [(any Sendable)?] = []

    /// Which participants have finished launching.
    nonisolated let readiness = Readiness()
    /// The supervised delivery or warm-up stage in progress, for ``activity``.
    nonisolated let activitySource = Locked<ActivitySource?>(nil)
    /// Each module's recent failures, and the quarantined modules.
    package nonisolated let quarantineLedger = QuarantineLedger()
    /// A failure made a module due for quarantine: the queue takes it out after the request in progress.
    var quarantineDue = false
    /// The warm-up stage in progress, so terminate and rollback can stop it, and removal can take a
    /// module out of it.
    var warmUpControl: WarmUpControl?

    /// The participants whose hooks ran past their budget, in the order it happened. They still receive
    /// events; the mark is for health checks and readiness.
    public internal(set) var degradedModules: [Participant] = []

    /// The participants. Replaced — never mutated — when a module is registered or removed, by a job on
    /// the actor; read from anywhere.
    nonisolated let roster: Locked<any LifecycleDispatcher>
    /// Whether termination was interrupted, and the `willTerminate` delivery to tell (see
    /// ``interruptTermination()``).
    nonisolated let termination = Locked(TerminationControl())
    nonisolated let mailbox: HostMailbox
    /// The work that runs between the hooks, when something built on the host adds it (``HostWorkKey``).
    nonisolated let hostWork: (any HostWork)?

    /// Creates a host whose context is handed to `makeDispatcher`, which builds the participants.
    package init<Failure: Error>(
        launchOptions: LaunchOptions,
        configuration: Configuration,
        makeDispatcher: (LifecycleContext) throws(Failure) -> any LifecycleDispatcher
    ) throws(Failure) {
        let mailbox = HostMailbox()
        let time = ClockFunctions(configuration.clock)
        let journal =
            configuration.journalCapacity > 0
            ? DeliveryJournal(capacity: configuration.journalCapacity, origin: time.wallOrigin) : nil
        let instruments = configuration.instruments
        let user: DeliveryObserver? =
            switch (configuration.onDelivery, instruments.isEmpty) {
            case (let user, true): user
            case (nil, false): { record in for instrument in instruments { instrument.delivered(record) } }
            case (let user?, false):
                { record in
                    user(record)
                    for instrument in instruments { instrument.delivered(record) }
                }
            }
        let observer: DeliveryObserver? =
            switch (journal, user) {
            case (nil, nil): nil
            case (let journal?, nil): { journal.record($0) }
            case (nil, let user?): user
            case (let journal?, let user?):
                { record in
                    journal.record(record)
                    user(record)
                }
            }
        // The context carries the observer, so what is built on the host (messages) reports to the journal.
        let watchdog = HostWatchdog(clock: HostClock(time))
        let context = LifecycleContext(
            launchOptions: launchOptions,
            mailbox: mailbox,
            observer: observer,
            watchdog: watchdog,
            faults: configuration.faultInjection
        )
        let dispatcher = try makeDispatcher(context)
        self.roster = Locked(dispatcher)
        self.mailbox = mailbox
        self.context = context
        self.configuration = configuration
        self.time = time
        self.journal = journal
        self.journalOnly = user == nil ? journal : nil
        self.instruments = instruments
        self.observer = observer
        self.hostWork = launchOptions[HostWorkKey.self]
        // Installed before the mailbox drains what the modules' initializers posted, so those jobs find
        // everything built on the host (the message bus) in place.
        dispatcher.didInstall()
        mailbox.attach(self)
    }

    deinit {
        // What was built on the host (the message bus) may hold its context; let it go with the host.
        roster.withLock { $0 }.didUninstall()
    }

    // MARK: - Reading

    /// The current participants. A job reads it once per delivery: only registration and removal, which
    /// are jobs themselves, replace it.
    nonisolated var dispatcher: any LifecycleDispatcher { roster.withLock { $0 } }

    /// Replaces the participants. Called only by registration and removal jobs.
    func replaceDispatcher(_ dispatcher: any LifecycleDispatcher) {
        roster.withLock { $0 = dispatcher }
        dispatcher.didInstall()
    }

    /// The host's current state. Readable from anywhere without waiting; inside a hook it is the state the
    /// host is in while delivering that event (`launching` during launch, for example).
    public nonisolated var state: ApplicationState { mailbox.state }

    /// Every participant: the program's delegate first if there is one, then modules by priority.
    public nonisolated var participants: [Participant] { dispatcher.participants }

    /// The participant `module` is now, or `nil` when it is none: never registered, removed, switched off,
    /// disabled in this environment, or taken out by quarantine. One table lookup whatever the number of
    /// modules, so a request may ask it (a module's routes ask it to know whether the module still serves).
    public nonisolated func participant(for module: any LifecycleModule.Type) -> Participant? {
        dispatcher.participant(of: module)
    }

    /// The modules `participant` directly depends on, each with why: declared in its `dependencies`, or
    /// added by something built on the host (a service it requires). It receives forward events after
    /// each of them and reverse events before. Empty for the program's delegate and for a module with no
    /// dependency.
    public nonisolated func dependencies(of participant: Participant) -> [ModuleDependency] {
        dispatcher.explainedDependencies(of: participant)
    }

    /// Whether at least one participant — the program's delegate or a module — implements `event`.
    public nonisolated func responds(to event: LifecycleEvent) -> Bool { !dispatcher.plan(for: event).isEmpty }

    /// The participants that receive `event`, in delivery order.
    public nonisolated func plan(for event: LifecycleEvent) -> [Participant] { dispatcher.plan(for: event) }

    /// The custom events at least one participant handles, in registration order.
    public nonisolated var customEvents: [LifecycleEvent] { dispatcher.customEvents }

    /// The manifest's modules that are disabled in this environment (see ``EnvironmentGatedModule``), with
    /// the reason, in manifest order. They are not created and receive nothing.
    public nonisolated var disabledModules: [(name: String, reason: String)] { dispatcher.disabledModules }

    // MARK: - Transitions

    /// Launches the application: delivers ``LifecycleEvent/willFinishLaunching``, the stages
    /// ``LifecycleEvent/setup``, ``LifecycleEvent/initialize`` and (concurrently) ``LifecycleEvent/warmUp``,
    /// then ``LifecycleEvent/didFinishLaunching`` and ``LifecycleEvent/didBecomeActive``; the host ends
    /// `active`.
    ///
    /// Allowed only in `notRunning`.
    ///
    /// - Returns: The OR-combined result of each launch event.
    /// - Throws: ``LifecycleError/Code/hookFailed`` after launch completes if any hook threw, or
    ///   ``LifecycleError/Code/launchAborted`` if a launch hook threw under the `abort` policy.
    @discardableResult
    public nonisolated func launch(
        file: String = #fileID,
        line: Int = #line
    ) async throws(LifecycleError)
        -> LaunchResult
    {
        try await perform(.launch, file: file, line: line) { host in
            await host.runLaunch(file: file, line: line)
        }
    }

    /// From the background, delivers ``LifecycleEvent/willEnterForeground`` then
    /// ``LifecycleEvent/didBecomeActive``; the host ends `active`.
    public nonisolated func enterForeground(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        try await transition(.enterForeground, file: file, line: line)
    }

    /// From `active`, delivers ``LifecycleEvent/willResignActive`` then ``LifecycleEvent/didEnterBackground``;
    /// from `inactive`, only ``LifecycleEvent/didEnterBackground``. The host ends in `background`.
    public nonisolated func enterBackground(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        try await transition(.enterBackground, file: file, line: line)
    }

    /// From `active`, delivers ``LifecycleEvent/willResignActive``; the host ends `inactive`.
    public nonisolated func resignActive(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        try await transition(.resignActive, file: file, line: line)
    }

    /// From `inactive`, delivers ``LifecycleEvent/didBecomeActive``; the host ends `active`.
    public nonisolated func becomeActive(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        try await transition(.becomeActive, file: file, line: line)
    }

    /// From any running state, delivers ``LifecycleEvent/willTerminate``; the host ends `terminated`, for good.
    public nonisolated func terminate(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        try await transition(.terminate, file: file, line: line)
    }

    // MARK: - Events

    /// Delivers ``LifecycleEvent/didReceiveMemoryWarning``. Allowed while running (active, inactive or
    /// background).
    public nonisolated func receiveMemoryWarning(
        file: String = #fileID,
        line: Int = #line
    )
        async throws(LifecycleError)
    {
        try await transition(.memoryWarning, file: file, line: line)
    }

    /// Delivers ``LifecycleEvent/openURL`` for `url` to every implementer. Allowed while running.
    ///
    /// - Returns: `true` if any participant handled the URL; `false` if none did or nobody implements it.
    public nonisolated func open(
        _ url: URL,
        file: String = #fileID,
        line: Int = #line
    ) async throws(LifecycleError)
        -> Bool
    {
        try await perform(.open(url), file: file, line: line) { host in
            await host.runOpenURL(url, file: file, line: line)
        }
    }

    /// Delivers the custom event `event` to every participant that handles it. Allowed while running.
    ///
    /// - Returns: The combined result (for `Bool`, `true` if any handler returned `true`).
    @discardableResult
    public nonisolated func send<E: CustomEvent>(
        _ event: E,
        file: String = #fileID,
        line: Int = #line
    )
        async throws(LifecycleError) -> E.Result
    {
        try await perform(.custom(LifecycleEvent(custom: E.self)), file: file, line: line) { host in
            await host.deliverCustom(event, file: file, line: line)
        }
    }

    /// Returns once the host has nothing left to deliver: every request emitted before this call, and
    /// every request those requests' hooks posted, has been delivered.
    ///
    /// Under a constant stream of new requests it waits until the stream pauses.
    ///
    /// - Throws: ``LifecycleError/Code/cancelled`` if the waiting task is cancelled first;
    ///   ``LifecycleError/Code/reentrantCall`` inside a hook of this host, where it would wait for itself.
    public nonisolated func waitUntilIdle(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        let request = HostRequest(.idle)
        try checkNotReentrant(request, file: file, line: line)
        guard await mailbox.waitUntilIdle() else {
            throw LifecycleError(code: .cancelled, request: request, state: state, file: file, line: line)
        }
    }

    /// Returns once every participant has finished launching, warm-up included.
    ///
    /// Waits for launch if it has not happened yet. With
    /// ``Configuration/didFinishLaunchingWaitsForWarmUp`` off, this is how a host learns warm-up is over.
    ///
    /// - Throws: ``LifecycleError/Code/notReady`` if launch aborts or the host terminates first;
    ///   ``LifecycleError/Code/reentrantCall`` inside a hook of this host.
    public nonisolated func waitUntilReady(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        try await waitForReadiness(of: nil, file: file, line: line)
    }

    /// Returns once `module` has finished launching: its warm-up if it has one, else the initialize stage.
    public nonisolated func waitUntilReady(
        _ module: any LifecycleModule.Type,
        file: String = #fileID,
        line: Int = #line
    ) async throws(LifecycleError) {
        guard let participant = participant(for: module) else {
            throw LifecycleError(code: .notReady, request: HostRequest(.idle), state: state, file: file, line: line)
        }
        try await waitForReadiness(of: participant.id, file: file, line: line)
    }

    /// Returns once the host is terminated: by ``terminate(file:line:)``, by a terminate request a hook
    /// posted, or by a launch that aborted. Returns at once if it already is.
    ///
    /// A program that serves until its modules decide to stop awaits this; so does a supervisor (a
    /// runner, a `ServiceGroup` service) that must notice a host that terminated itself.
    ///
    /// - Throws: ``LifecycleError/Code/cancelled`` if the waiting task is cancelled first;
    ///   ``LifecycleError/Code/reentrantCall`` inside a hook of this host, where it would wait for itself.
    public nonisolated func waitUntilTerminated(file: String = #fileID, line: Int = #line) async throws(LifecycleError)
    {
        let request = HostRequest(.waitTerminated)
        try checkNotReentrant(request, file: file, line: line)
        guard await mailbox.waitUntilTerminated() else {
            throw LifecycleError(code: .cancelled, request: request, state: state, file: file, line: line)
        }
    }

    /// Cuts termination short: no further `willTerminate` hook starts. A hook already running finishes
    /// (within ``Configuration/terminateDeadline``); the participants not yet reached are skipped, and the
    /// `terminate()` in progress throws ``LifecycleError/Code/interrupted`` naming them. The host still
    /// ends `terminated`.
    ///
    /// It applies to the termination in progress, or to the next one if none is (a launch rollback
    /// included); it does not request termination itself. Call it when a fast exit matters more than
    /// the modules' cleanup — `HostRunner` does, on a second SIGINT. Safe to call from anywhere, any
    /// number of times.
    public nonisolated func interruptTermination() {
        termination.withLock { control in
            control.interrupted = true
            return control.delivery
        }?.interrupt()
    }

    private nonisolated func waitForReadiness(of index: Int?, file: String, line: Int) async throws(LifecycleError) {
        try checkNotReentrant(HostRequest(.idle), file: file, line: line)
        switch await readiness.wait(for: index) {
        case .ready:
            return
        case .never(let state):
            throw LifecycleError(code: .notReady, request: .launch, state: state, file: file, line: line)
        case .cancelled:
            throw LifecycleError(code: .cancelled, request: .launch, state: self.state, file: file, line: line)
        }
    }
}
