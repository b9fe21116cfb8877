#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

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
    private nonisolated let observer: DeliveryObserver?
    /// The journal when it is the only listener: then the host records into it directly (see
    /// `DeliveryJournal.record(_:of:at:start:duration:result:error:)`), without a ``DeliveryRecord``.
    private nonisolated let journalOnly: DeliveryJournal?
    /// The configured clock, opened once.
    private nonisolated let time: ClockFunctions

    /// Which participants have finished launching.
    nonisolated let readiness = Readiness()
    /// The warm-up stage in progress, so terminate and rollback can stop it, and removal can take a
    /// module out of it.
    var warmUpControl: WarmUpControl?

    /// The participants whose hooks ran past their budget, in the order it happened. They still receive
    /// events; the mark is for health checks and readiness.
    public internal(set) var degradedModules: [Participant] = []

    /// The participants. Replaced — never mutated — when a module is registered or removed, by a job on
    /// the actor; read from anywhere.
    private nonisolated let roster: Locked<any LifecycleDispatcher>
    /// Whether termination was interrupted, and the `willTerminate` delivery to tell (see
    /// ``interruptTermination()``).
    private nonisolated let termination = Locked(TerminationControl())
    private nonisolated let mailbox: HostMailbox

    /// Marks the task of the job being processed (and the tasks it spawns), to recognise a host method
    /// awaited from inside a hook while that hook's job is still running.
    @TaskLocal private static var currentJob: HostMailbox.JobToken?

    /// Creates a host whose context is handed to `makeDispatcher`, which builds the participants.
    package init<Failure: Error>(
        launchOptions: LaunchOptions,
        configuration: Configuration,
        makeDispatcher: (LifecycleContext) throws(Failure) -> any LifecycleDispatcher
    ) throws(Failure) {
        let mailbox = HostMailbox()
        let context = LifecycleContext(launchOptions: launchOptions, mailbox: mailbox)
        self.roster = Locked(try makeDispatcher(context))
        self.mailbox = mailbox
        self.context = context
        self.configuration = configuration
        let time = ClockFunctions(configuration.clock)
        self.time = time
        let journal =
            configuration.journalCapacity > 0
            ? DeliveryJournal(capacity: configuration.journalCapacity, origin: time.wallOrigin) : nil
        self.journal = journal
        self.journalOnly = configuration.onDelivery == nil ? journal : nil
        switch (journal, configuration.onDelivery) {
        case (nil, nil): self.observer = nil
        case (let journal?, nil): self.observer = { journal.record($0) }
        case (nil, let user?): self.observer = user
        case (let journal?, let user?):
            self.observer = { record in
                journal.record(record)
                user(record)
            }
        }
        mailbox.attach(self)
    }

    // MARK: - Reading

    /// The current participants. A job reads it once per delivery: only registration and removal, which
    /// are jobs themselves, replace it.
    nonisolated var dispatcher: any LifecycleDispatcher { roster.withLock { $0 } }

    /// Replaces the participants. Called only by registration and removal jobs.
    func replaceDispatcher(_ dispatcher: any LifecycleDispatcher) { roster.withLock { $0 = dispatcher } }

    /// The host's current state. Readable from anywhere without waiting; inside a hook it is the state the
    /// host is in while delivering that event (`launching` during launch, for example).
    public nonisolated var state: ApplicationState { mailbox.state }

    /// Every participant: the program's delegate first if there is one, then modules by priority.
    public nonisolated var participants: [Participant] { dispatcher.participants }

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
    /// - Throws: ``LifecycleError/Code/reentrantCall`` inside a hook of this host, where it would wait for
    ///   itself.
    public nonisolated func waitUntilIdle(file: String = #fileID, line: Int = #line) async throws(LifecycleError) {
        try checkNotReentrant(HostRequest(.idle), file: file, line: line)
        await mailbox.waitUntilIdle()
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
        let name = String(reflecting: module)
        guard let participant = participants.first(where: { $0.name == name && !$0.isDelegate }) else {
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

    // MARK: - Queueing

    private nonisolated func transition(_ request: HostRequest, file: String, line: Int) async throws(LifecycleError) {
        try await perform(request, file: file, line: line) { host in
            await host.process(request, file: file, line: line)
        }
    }

    /// Queues `work` and waits for its result.
    ///
    /// Throws `reentrantCall` instead when called from inside a hook of this host, where waiting would
    /// deadlock. If the waiting task is cancelled, it stops waiting and throws `cancelled`; the request
    /// stays queued, and its errors then go to ``Configuration/onUnobservedError``.
    nonisolated func perform<T: Sendable>(
        _ request: HostRequest,
        file: String,
        line: Int,
        _ work: @escaping @Sendable (isolated ApplicationHost) async -> Result<T, LifecycleError>
    ) async throws(LifecycleError) -> T {
        try checkNotReentrant(request, file: file, line: line)
        let reply = PendingReply<T>()
        let mailbox = self.mailbox
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                reply.wait(continuation)
                mailbox.submit { host in
                    let outcome = await work(host)
                    if !reply.resolve(outcome), case .failure(let error) = outcome {
                        host.configuration.onUnobservedError(error)
                    }
                }
            }
        } onCancel: {
            reply.resolve(
                .failure(
                    LifecycleError(code: .cancelled, request: request, state: mailbox.state, file: file, line: line)
                )
            )
        }
        return try outcome.get()
    }

    private nonisolated func checkNotReentrant(_ request: HostRequest, file: String, line: Int) throws(LifecycleError) {
        guard let token = Self.currentJob, mailbox.isRunning(token) else { return }
        throw LifecycleError(
            code: .reentrantCall,
            request: request,
            state: mailbox.state,
            eventInProgress: mailbox.eventInProgress,
            file: file,
            line: line
        )
    }

    /// Runs queued jobs until the mailbox is empty. Only one drain task runs at a time.
    func drain() async {
        while let (job, token) = mailbox.next() {
            await Self.$currentJob.withValue(token) {
                await job(self)
            }
        }
    }

    // MARK: - Processing (runs on the actor, one request at a time)

    var currentState: ApplicationState { mailbox.state }

    func setState(_ state: ApplicationState) { mailbox.setState(state) }

    /// Processes a request whose result nobody reads: awaited transitions and posted requests.
    func process(_ request: HostRequest, file: String, line: Int) async -> Result<Void, LifecycleError> {
        switch request.kind {
        case .launch:
            return await runLaunch(file: file, line: line).map { _ in () }
        case .openURL(let url):
            return await runOpenURL(url, file: file, line: line).map { _ in () }
        case .register(let module):
            return await runRegister(module.type, file: file, line: line).map { _ in () }
        case .remove(let module):
            return await runRemove(module.type, file: file, line: line)
        case .custom, .idle, .waitTerminated:
            // A custom event travels its typed path (`deliverCustom`): `HostRequest.custom` only names it,
            // without the payload. Reached only when such a request is posted.
            return .failure(
                LifecycleError(code: .invalidRequest, request: request, state: currentState, file: file, line: line)
            )
        case .enterForeground:
            return await run(request, from: [.background], file: file, line: line) { _ in
                ([(.background, .willEnterForeground), (.active, .didBecomeActive)], .active)
            }
        case .enterBackground:
            return await run(request, from: [.active, .inactive], file: file, line: line) { state in
                state == .active
                    ? ([(.active, .willResignActive), (.background, .didEnterBackground)], .background)
                    : ([(.background, .didEnterBackground)], .background)
            }
        case .resignActive:
            return await run(request, from: [.active], file: file, line: line) { _ in
                ([(.active, .willResignActive)], .inactive)
            }
        case .becomeActive:
            return await run(request, from: [.inactive], file: file, line: line) { _ in
                ([(.active, .didBecomeActive)], .active)
            }
        case .terminate:
            if [.active, .inactive, .background].contains(currentState) {
                warmUpControl?.stop()
                readiness.markNever(.terminated)
            }
            return await run(request, from: [.active, .inactive, .background], file: file, line: line) { _ in
                ([(.terminating, .willTerminate)], .terminated)
            }
        case .memoryWarning:
            return await run(request, from: [.active, .inactive, .background], file: file, line: line) { state in
                ([(state, .didReceiveMemoryWarning)], state)
            }
        }
    }

    /// Checks that `request` is allowed in the current state, then delivers each step's event in the state
    /// the step names (what a hook reads from ``state``), and ends in `final`.
    ///
    /// "Will" events are delivered in the state being left; "did" events in the state being entered.
    private func run(
        _ request: HostRequest,
        from allowed: Set<ApplicationState>,
        file: String,
        line: Int,
        steps: (ApplicationState) -> (steps: [(ApplicationState, LifecycleEvent)], final: ApplicationState)
    ) async -> Result<Void, LifecycleError> {
        let start = currentState
        guard allowed.contains(start) else {
            return .failure(invalidTransition(request, file, line))
        }
        let plan = steps(start)
        var failures: [HookFailure] = []
        for (state, event) in plan.steps {
            setState(state)
            let delivery = await deliver(
                event,
                deadline: event == .willTerminate ? configuration.terminateDeadline : nil,
                interruptible: event == .willTerminate
            )
            failures += delivery.outcome.failures
            if !delivery.abandoned.isEmpty {
                setState(plan.final)
                var error = LifecycleError(
                    code: delivery.interrupted ? .interrupted : .deadlineExceeded,
                    request: request,
                    state: plan.final,
                    failures: failures,
                    file: file,
                    line: line
                )
                error.abandoned = delivery.abandoned
                return .failure(error)
            }
            if delivery.stopped {
                // A timeout under `.fail`: the request ends here. Termination cannot stay half done.
                if plan.final == .terminated { setState(.terminated) }
                return .failure(timedOut(request, failures, file, line))
            }
        }
        setState(plan.final)
        return failures.isEmpty ? .success(()) : .failure(hookFailed(request, failures, result: nil, file, line))
    }

    private func runLaunch(file: String, line: Int) async -> Result<LaunchResult, LifecycleError> {
        guard currentState == .notRunning else {
            return .failure(invalidTransition(.launch, file, line))
        }
        setState(.launching)
        // Whose failure aborts launch: a module's own policy, else the host's.
        let hostAborts = configuration.launchFailurePolicy == .abort
        let dispatcher = self.dispatcher  // one read of the roster, not one per participant
        let aborters = Set(
            dispatcher.participants.filter { (dispatcher.failurePolicy(of: $0).map { $0 == .abort }) ?? hostAborts }
                .map(\.id)
        )
        let scope: DeliveryScope = aborters.isEmpty ? .all : .untilFailureOf(aborters)
        var failures: [HookFailure] = []
        var results: [Bool] = []
        let sequence: [LifecycleEvent] = [.willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching]
        for (pass, event) in sequence.enumerated() {
            if event == .warmUp {
                guard configuration.didFinishLaunchingWaitsForWarmUp else { continue }
                let warmUp = await runWarmUp(aborters: aborters, background: false)
                failures += warmUp.failures
                if let failure = warmUp.stop {
                    // Every participant passed initialize: all but the failing one are rolled back.
                    let reached = participants.map(\.id).filter { $0 != failure.participant.id }
                    return .failure(await rollBack(reached: Set(reached), failures: failures, file: file, line: line))
                }
                continue
            }
            let delivery = await deliver(event, scope: scope)
            let outcome = delivery.outcome
            failures += outcome.failures
            if event.resultRule != .none { results.append(outcome.result) }
            // Abort on a failure of an aborting participant; a timeout under `.fail` aborts launch as a whole.
            let aborting = outcome.failures.first { aborters.contains($0.participant.id) }
            if let failure = delivery.stopped ? outcome.failures.last : aborting {
                // Launch reached everyone before the failing participant; in later passes, everyone had
                // already passed the first. The failing participant threw, so it cleans up itself.
                let failed = failure.participant.id
                let order = participants.map(\.id)
                let reached = pass == 0 ? Array(order.prefix { $0 != failed }) : order.filter { $0 != failed }
                return .failure(await rollBack(reached: Set(reached), failures: failures, file: file, line: line))
            }
        }
        // Launch is through: with warm-up done in place, everyone is ready now, not before, so a waiter is
        // never told "ready" by a launch that `didFinishLaunching` then aborts.
        if configuration.didFinishLaunchingWaitsForWarmUp { readiness.markAllReady() }
        setState(.active)
        failures += await deliver(.didBecomeActive).outcome.failures
        if !configuration.didFinishLaunchingWaitsForWarmUp { startWarmUpInBackground(aborters: aborters) }
        let result = LaunchResult(willFinishLaunching: results[0], didFinishLaunching: results[1])
        guard failures.isEmpty else {
            var error = hookFailed(.launch, failures, result: nil, file, line)
            error.launchResult = result
            return .failure(error)
        }
        return .success(result)
    }

    /// Delivers `willTerminate` to the participants in `reached`, in reverse order, and terminates.
    private func rollBack(reached: Set<Int>, failures: [HookFailure], file: String, line: Int) async -> LifecycleError {
        warmUpControl?.stop()
        readiness.markNever(.terminated)
        setState(.terminating)
        let rolledBack = plan(for: .willTerminate).filter { reached.contains($0.id) }
        let delivery = await deliver(
            .willTerminate,
            scope: .only(reached),
            deadline: configuration.terminateDeadline,
            interruptible: true
        )
        setState(.terminated)
        var error = LifecycleError(
            code: .launchAborted,
            request: .launch,
            state: .terminated,
            failures: failures + delivery.outcome.failures,
            rolledBack: rolledBack,
            file: file,
            line: line
        )
        error.abandoned = delivery.abandoned
        return error
    }

    private func runOpenURL(_ url: URL, file: String, line: Int) async -> Result<Bool, LifecycleError> {
        let request = HostRequest.open(url)
        guard currentState.isRunning else {
            return .failure(invalidTransition(request, file, line))
        }
        mailbox.setEventInProgress(.openURL)
        let dispatcher = self.dispatcher
        let observer = self.observer
        let delivery = await limited(
            .openURL,
            dispatcher: dispatcher,
            direct: { await dispatcher.open(url, observer: observer, from: 0, supervisor: nil) },
            combine: { booleanResult(.openURL, $0) },
            run: { from, supervisor, observer in
                _ = await dispatcher.open(url, observer: observer, from: from, supervisor: supervisor)
            }
        )
        mailbox.setEventInProgress(nil)
        return settle(request, delivery, result: delivery.outcome.result, file, line)
    }

    func deliverCustom<E: CustomEvent>(_ event: E, file: String, line: Int) async -> Result<E.Result, LifecycleError> {
        let lifecycleEvent = LifecycleEvent(custom: E.self)
        let request = HostRequest.custom(lifecycleEvent)
        guard currentState.isRunning else {
            return .failure(invalidTransition(request, file, line))
        }
        mailbox.setEventInProgress(lifecycleEvent)
        let dispatcher = self.dispatcher
        let observer = self.observer
        let delivery = await limited(
            lifecycleEvent,
            dispatcher: dispatcher,
            direct: { await dispatcher.deliver(event, observer: observer, from: 0, supervisor: nil) },
            combine: { answers in
                answers.compactMap { $0 as? E.Result }.reduce(nil) { soFar, next in
                    soFar.map { E.Result.combine($0, next) } ?? next
                }
                    ?? E.Result.unanswered
            },
            run: { from, supervisor, observer in
                _ = await dispatcher.deliver(event, observer: observer, from: from, supervisor: supervisor)
            }
        )
        mailbox.setEventInProgress(nil)
        return settle(request, delivery, result: delivery.outcome.result as? Bool, file, line)
    }

    /// The result of an event delivered in place (open-URL, custom): its combined value, or the one error
    /// its delivery earned — `timedOut` if a timeout stopped it, else `hookFailed` listing every failure.
    private func settle<R: Sendable>(
        _ request: HostRequest,
        _ delivery: LimitedDelivery<R>,
        result: Bool?,
        _ file: String,
        _ line: Int
    ) -> Result<R, LifecycleError> {
        let failures = delivery.outcome.failures
        if delivery.stopped {
            return .failure(timedOut(request, failures, file, line))
        }
        guard failures.isEmpty else { return .failure(hookFailed(request, failures, result: result, file, line)) }
        return .success(delivery.outcome.result)
    }

    /// Delivers a built-in event without an argument, under the time limits.
    func deliver(
        _ event: LifecycleEvent,
        scope: DeliveryScope = .all,
        deadline: Duration? = nil,
        interruptible: Bool = false
    ) async -> LimitedDelivery<Bool> {
        mailbox.setEventInProgress(event)
        defer { mailbox.setEventInProgress(nil) }
        let dispatcher = self.dispatcher
        let observer = self.observer
        return await limited(
            event,
            dispatcher: dispatcher,
            scope: scope,
            deadline: deadline,
            interruptible: interruptible,
            direct: { await dispatcher.deliver(event, scope: scope, observer: observer, from: 0, supervisor: nil) },
            combine: { booleanResult(event, $0) },
            run: { from, supervisor, observer in
                _ = await dispatcher.deliver(
                    event,
                    scope: scope,
                    observer: observer,
                    from: from,
                    supervisor: supervisor
                )
            }
        )
    }

    // MARK: - Warm-up

    /// Runs the warm-up stage in the background, after launch; its failures go to
    /// ``Configuration/onUnobservedError``, and ``waitUntilReady(file:line:)`` tells when it is over.
    /// `terminate()` stops it.
    private func startWarmUpInBackground(aborters: Set<Int>) {
        Task {
            let warmUp = await self.runWarmUp(aborters: aborters, background: true)
            // Failures are reported before readiness changes, so a waiter that wakes up finds them there.
            defer {
                if warmUp.stop != nil { self.readiness.markNever(self.currentState) }
                if warmUp.completed { self.readiness.markAllReady() }
            }
            if !warmUp.failures.isEmpty {
                let code: LifecycleError.Code = warmUp.stop?.error is HookTimeout ? .timedOut : .hookFailed
                self.configuration.onUnobservedError(
                    LifecycleError(
                        code: code,
                        request: .launch,
                        state: self.currentState,
                        failures: warmUp.failures,
                        file: #fileID,
                        line: #line
                    )
                )
            }
        }
    }

    /// Runs every warm-up hook, concurrently: a module starts as soon as every warm-up implementer it
    /// depends on (directly or through modules without warm-up) has finished, in delivery order among
    /// those ready together. Each hook runs under its budget.
    ///
    /// Warm-up stops — nothing more starts, hooks in flight are cancelled and abandoned — when a hook of
    /// an aborting participant fails, when a hook times out under `.fail`, or when ``warmUpControl`` is
    /// stopped (terminate, rollback). Otherwise a failed or timed-out warm-up counts as finished, so its
    /// dependents still start. A participant is marked ready when its warm-up finishes, never when it
    /// stopped the stage.
    ///
    /// - Returns: Every failure in delivery order, the one that stopped the stage, if any, and whether the
    ///   stage completed (neither stopped by a failure nor from outside). The caller marks the host ready:
    ///   launch once `didFinishLaunching` is through, a background stage once its failures are reported.
    private func runWarmUp(
        aborters: Set<Int>,
        background: Bool
    ) async -> (failures: [HookFailure], stop: HookFailure?, completed: Bool) {
        // Held for the whole stage: a module registered or removed meanwhile does not change its plan.
        await runWarmUp(dispatcher, aborters: aborters, background: background)
    }

    /// ``runWarmUp(aborters:background:)`` with the dispatcher opened once: it is asked something for every
    /// participant, and each call through the existential would copy it.
    private func runWarmUp<Dispatcher: LifecycleDispatcher>(
        _ dispatcher: Dispatcher,
        aborters: Set<Int>,
        background: Bool
    ) async -> (failures: [HookFailure], stop: HookFailure?, completed: Bool) {
        let participants = dispatcher.participants
        let plan = dispatcher.plan(for: .warmUp)
        let graph = WarmUpGraph(plan: plan, participants: participants, dependencies: dispatcher.dependencies(of:))
        readiness.markReady(graph.withoutWarmUp)
        guard !plan.isEmpty else { return ([], nil, true) }
        if !background { mailbox.setEventInProgress(.warmUp) }
        defer { if !background { mailbox.setEventInProgress(nil) } }

        let fallback = configuration.eventBudgets[.warmUp] ?? configuration.hookBudget
        let control = WarmUpControl(
            plan: plan,
            graph: graph,
            budgets: plan.map { dispatcher.moduleBudget($0, for: .warmUp) ?? fallback },
            aborting: aborters.isEmpty
                ? Array(repeating: false, count: plan.count) : plan.map { aborters.contains($0.id) },
            call: { dispatcher.warmUpCall(at: $0) },
            journal: journalOnly,
            observer: journalOnly == nil ? observer : nil,
            readiness: readiness,
            time: time
        )
        warmUpControl = control
        control.startReady()

        // Runners start dependents and report on their own; the stage handles what needs the host:
        // timeouts, which degrade a module and may stop the stage.
        let timeoutStops = configuration.timeoutPolicy == .fail
        while true {
            let timeouts = await control.nextTimeouts()
            if timeouts.isEmpty { break }  // every hook finished, or the stage stopped
            for late in timeouts where !control.hasLeft(late.position) {
                let participant = plan[late.position]
                let timeout = HookTimeout(
                    participant: participant.name,
                    event: .warmUp,
                    budget: late.budget,
                    elapsed: late.elapsed
                )
                control.report(timeout, of: late.position, since: late.wallStart)
                if !degradedModules.contains(participant) { degradedModules.append(participant) }
                control.settle(
                    late.position,
                    HookFailure(participant: participant, event: .warmUp, error: timeout),
                    stopping: timeoutStops || aborters.contains(participant.id)
                )
            }
        }
        if !control.isStopped { control.finishing() }
        control.stop()  // cancels what is still in flight, and the watchdog
        control.close()
        if warmUpControl === control { warmUpControl = nil }
        let (failures, stop) = control.outcome
        let completed = stop == nil && !control.wasStoppedFromOutside
        return (failures, stop, completed)
    }

    // MARK: - Time limits

    /// Delivers an event under its time budgets.
    ///
    /// With no budget and no deadline, `direct` delivers inline, as fast as the proxy can. Otherwise one
    /// runner task walks the participants (still one inline loop) while one watchdog sleeps until the
    /// current hook's deadline (with no hook in progress, it waits for the next call). A hook past its
    /// budget is abandoned — the runner is cancelled and superseded, so it stops when that hook returns, if
    /// ever — its module is marked degraded, and a new runner goes on from the next participant (or the
    /// request stops, under `.fail` or when launch aborts on failure). Past the overall `deadline`,
    /// everything not yet done is abandoned.
    ///
    /// When the journal is the only listener, the supervisor journals each call itself and the journal
    /// takes the calls when touched (see `JournalSource`); otherwise the fan-out reports to the observer.
    private func limited<R: Sendable>(
        _ event: LifecycleEvent,
        dispatcher: any LifecycleDispatcher,
        scope: DeliveryScope = .all,
        deadline: Duration? = nil,
        interruptible: Bool = false,
        direct: () async -> EventOutcome<R>,
        combine: @escaping ([any Sendable]) -> R,
        run:
            @escaping @Sendable (_ from: Int, _ supervisor: any DeliverySupervisor, _ observer: DeliveryObserver?) async
            -> Void
    ) async -> LimitedDelivery<R> {
        let plan = dispatcher.plan(for: event)
        // Read once: each read of `configuration` copies it (and retains what it holds).
        let fallback = configuration.eventBudgets[event] ?? configuration.hookBudget
        // An interruptible delivery (termination) is always supervised: the supervisor is what stops it.
        guard interruptible || deadline != nil || fallback != nil || Self.anyModuleBudget(dispatcher, plan, for: event)
        else {
            return LimitedDelivery(outcome: await direct(), stopped: false, abandoned: [])
        }
        // A hook's budget is looked up when the watchdog needs it: about once per event, not once per hook.
        let budgets = Budgets(plan: plan, event: event, fallback: fallback, dispatcher: dispatcher)
        let inScope: (Participant) -> Bool = { participant in
            if case .only(let allowed) = scope { return allowed.contains(participant.id) }
            return true
        }
        let stoppers: Set<Int>
        if case .untilFailureOf(let set) = scope { stoppers = set } else { stoppers = [] }

        // With nobody but the journal listening, the supervisor journals each call, and the fan-out is
        // given no observer: it then builds no DeliveryRecord and reads no clock of its own.
        let time = self.time
        let journaling = journalOnly.map { journal in
            DeliverySupervision.Journaling(
                journal: journal,
                context: journal.openContext(event, plan: plan),
                event: event,
                time: time
            )
        }
        let observer = journaling == nil ? self.observer : nil
        let shared = DeliverySupervision.SharedState(
            count: plan.count,
            tracksAnswered: deadline != nil || interruptible,
            keepsAnswers: event.resultRule != .none,
            journaling: journaling
        )
        // It keeps the calls it journals until the journal takes them, at the latest when it is detached.
        if let journaling {
            journaling.journal.attach(shared)
        }
        defer {
            if let journaling {
                journaling.journal.detach(shared)
                journaling.journal.closeContext(journaling.context)
            }
        }
        if interruptible {
            let interrupted = termination.withLock { control in
                control.delivery = shared
                return control.interrupted
            }
            if interrupted { shared.interrupt() }
        }
        defer {
            if interruptible { termination.withLock { $0.delivery = nil } }
        }
        let absoluteDeadline = deadline.map { time.now() + $0 }
        var from = 0
        var generation = 0
        var timeouts: [(position: Int, failure: HookFailure)] = []
        var abandoned: [Participant] = []
        var stopped = false
        supervision: while from < plan.count {
            let supervisor = DeliverySupervision(time: time, shared: shared, generation: generation)
            let ending = PendingReply<WatchEnding>()
            let start = from
            let runner = Task { @Sendable in
                await run(start, supervisor, observer)
                // A superseded runner leaves the ending to the watchdog, which reports the timeout: if it
                // said `.finished`, the host would take the event as complete and skip the rest.
                if supervisor.isCurrent { ending.resolve(.success(.finished)) }
            }
            let watchdog = Task { @Sendable in
                await Self.watch(shared, time: time, budgets: budgets, deadline: absoluteDeadline, ending: ending)
            }
            let result = await withCheckedContinuation { ending.wait($0) }
            watchdog.cancel()
            guard case .success(let end) = result else { break }
            switch end {
            case .finished:
                break supervision
            case .timedOut(let position, let elapsed, let wallStart, let next):
                runner.cancel()
                generation = next
                let participant = plan[position]
                let timeout = HookTimeout(
                    participant: participant.name,
                    event: event,
                    budget: budgets[position] ?? .zero,
                    elapsed: elapsed
                )
                timeouts.append((position, HookFailure(participant: participant, event: event, error: timeout)))
                report(timeout, of: participant, since: wallStart)
                if !degradedModules.contains(participant) { degradedModules.append(participant) }
                if stoppers.contains(participant.id) || configuration.timeoutPolicy == .fail {
                    stopped = true
                    break supervision
                }
                from = position + 1
            case .deadline(let position, let elapsed, let wallStart):
                runner.cancel()
                if let position {
                    let participant = plan[position]
                    let timeout = HookTimeout(
                        participant: participant.name,
                        event: event,
                        budget: deadline ?? .zero,
                        elapsed: elapsed
                    )
                    timeouts.append((position, HookFailure(participant: participant, event: event, error: timeout)))
                    report(timeout, of: participant, since: wallStart ?? time.wallNow() - elapsed)
                }
                abandoned = shared.unanswered(from..<plan.count).filter { inScope(plan[$0]) }.map { plan[$0] }
                break supervision
            }
        }
        var interrupted = false
        if abandoned.isEmpty, !stopped, shared.wasInterrupted {
            // The runner stopped before the hooks not yet started; a timeout's hook answered as failed.
            let timedOut = Set(timeouts.map(\.position))
            abandoned = shared.unanswered(0..<plan.count).filter { !timedOut.contains($0) && inScope(plan[$0]) }
                .map { plan[$0] }
            interrupted = !abandoned.isEmpty
        }
        shared.finish()
        let answers = shared.answers
        var failures = answers.compactMap { answer in
            answer.failure.map {
                (answer.position, HookFailure(participant: plan[answer.position], event: event, error: $0))
            }
        }
        failures += timeouts
        failures.sort { $0.0 < $1.0 }
        let outcome = EventOutcome(
            event: event,
            result: combine(answers.filter { $0.failure == nil }.compactMap(\.answer)),
            failures: failures.map(\.1),
            delivered: shared.answeredCount + timeouts.count
        )
        return LimitedDelivery(outcome: outcome, stopped: stopped, abandoned: abandoned, interrupted: interrupted)
    }

    /// Whether a participant of `plan` has a budget of its own for `event`. Generic, so the dispatcher is
    /// opened once rather than copied out of its existential for every participant.
    private static func anyModuleBudget<Dispatcher: LifecycleDispatcher>(
        _ dispatcher: Dispatcher,
        _ plan: [Participant],
        for event: LifecycleEvent
    ) -> Bool {
        for index in plan.indices where dispatcher.moduleBudget(plan[index], for: event) != nil { return true }
        return false
    }

    /// Tells the journal and ``Configuration/onDelivery`` about a hook abandoned on a timeout: it never
    /// completes, so the fan-out cannot.
    private func report(_ timeout: HookTimeout, of participant: Participant, since start: Duration) {
        observer?(
            DeliveryRecord(
                event: timeout.event,
                participant: participant,
                start: time.wall(start),
                duration: timeout.elapsed,
                result: nil,
                error: timeout
            )
        )
    }

    /// Sleeps until the current hook's deadline (or the overall deadline, if sooner) and reports the first
    /// hook past its budget, or the overall deadline. With no hook in progress it waits for the next call;
    /// a hook without a budget, while others have one, is watched at the shortest budget. Wakes about once
    /// per event in practice: hooks take microseconds, budgets seconds.
    private static func watch(
        _ shared: DeliverySupervision.SharedState,
        time: ClockFunctions,
        budgets: Budgets,
        deadline: Duration?,
        ending: PendingReply<WatchEnding>
    ) async {
        // Needed only when the hook in progress has no budget but others may; it reads every budget, so
        // it is read then, once.
        var shortest: Duration??
        while !Task.isCancelled {
            let now = time.now()
            if let deadline, now >= deadline {
                let current = shared.stopAll()
                ending.resolve(
                    .success(
                        .deadline(
                            current?.position,
                            current.map { now - $0.start } ?? .zero,
                            wallStart: current?.wallStart
                        )
                    )
                )
                return
            }
            let (current, calls) = shared.progress
            guard let current else {
                // No hook in progress: nothing can run past a budget or be abandoned at the deadline until
                // the next one starts. Wait for that call instead of sleeping on a guess.
                await shared.waitForCall(after: calls)
                continue
            }
            var wake = deadline
            if let budget = budgets[current.position] {
                let due = current.start + budget
                if now >= due {
                    // Expire only if that hook is still running: a hook that just returned is not abandoned.
                    if let next = shared.expire(position: current.position) {
                        ending.resolve(
                            .success(
                                .timedOut(
                                    current.position,
                                    now - current.start,
                                    wallStart: current.wallStart,
                                    generation: next
                                )
                            )
                        )
                        return
                    }
                    continue
                }
                wake = min(wake ?? due, due)
            } else {
                if shortest == nil { shortest = .some(budgets.shortest) }
                if let budget = shortest ?? nil { wake = min(wake ?? now + budget, now + budget) }
            }
            guard let wake else { return }
            do { try await time.sleep(wake) } catch { return }
        }
    }

    func invalidTransition(_ request: HostRequest, _ file: String, _ line: Int) -> LifecycleError {
        LifecycleError(code: .invalidTransition, request: request, state: currentState, file: file, line: line)
    }

    func timedOut(
        _ request: HostRequest,
        _ failures: [HookFailure],
        _ file: String,
        _ line: Int
    )
        -> LifecycleError
    {
        LifecycleError(
            code: .timedOut,
            request: request,
            state: currentState,
            failures: failures,
            file: file,
            line: line
        )
    }

    func hookFailed(
        _ request: HostRequest,
        _ failures: [HookFailure],
        result: Bool?,
        _ file: String,
        _ line: Int
    ) -> LifecycleError {
        LifecycleError(
            code: .hookFailed,
            request: request,
            state: currentState,
            failures: failures,
            result: result,
            file: file,
            line: line
        )
    }
}

/// The time budget of each hook of one delivery, looked up when needed: a watchdog needs one or two per
/// event, while looking them all up would cost a dispatcher call per participant.
private struct Budgets: Sendable {
    let plan: [Participant]
    let event: LifecycleEvent
    /// The configuration's budget for the event, which a module's own budget overrides.
    let fallback: Duration?
    let dispatcher: any LifecycleDispatcher

    /// The budget of the hook at `position` of the plan.
    subscript(position: Int) -> Duration? { dispatcher.moduleBudget(plan[position], for: event) ?? fallback }

    /// The shortest budget of any hook of the event. Reads every one.
    var shortest: Duration? { plan.indices.lazy.compactMap { self[$0] }.min() }
}

/// What a delivery under time limits produced.
struct LimitedDelivery<R: Sendable> {
    var outcome: EventOutcome<R>
    /// A timeout stopped the request (`.fail`, or launch aborting on failure).
    var stopped: Bool
    /// Participants abandoned at the overall deadline, or skipped after an interruption.
    var abandoned: [Participant]
    /// ``ApplicationHost/interruptTermination()`` skipped the participants in `abandoned`.
    var interrupted = false
}

/// See ``ApplicationHost/interruptTermination()``.
struct TerminationControl: Sendable {
    var interrupted = false
    /// The `willTerminate` delivery in progress, if any.
    var delivery: DeliverySupervision.SharedState?
}

/// Who waits for whom in one warm-up stage, by position in the warm-up plan.
///
/// A warm-up implementer waits for the implementers it reaches through its dependencies, directly or
/// through participants without a warm-up — but not through another implementer: that one starts only
/// after its own prerequisites finished, so waiting for it covers them. This gives every module the same
/// start condition as waiting for every implementer in its transitive dependencies, with one visit per
/// edge instead of a walk of the whole closure per module.
package struct WarmUpGraph: Sendable {
    /// The waits-for edges in compressed rows: the positions `position` waits for are
    /// `waitedFor[waitStart[position] ..< waitStart[position + 1]]`, each once. Flat arrays: the stage
    /// walks them once per hook, and one allocation per module would cost more than the walk.
    private let waitStart: [Int]
    private let waitedFor: [Int]
    /// The same edges the other way: the positions that wait for `position`, in delivery order.
    private let dependentStart: [Int]
    private let dependentList: [Int]
    /// The ids of the participants that do not implement warm-up, in delivery order.
    package let withoutWarmUp: [Int]

    /// Builds the graph of `plan` (the warm-up implementers, in delivery order) among `participants`
    /// (every participant), following `dependencies` (a participant's direct dependencies, by id).
    package init(
        plan: [Participant],
        participants: [Participant],
        dependencies: (Participant) -> [Int]
    ) {
        // Participant ids are small and dense (given in join order, never reused): arrays indexed by id
        // stand in for dictionaries and sets.
        let idCount = (participants.lazy.map(\.id).max() ?? -1) + 1
        var slot = [Int](repeating: -1, count: idCount)
        for index in participants.indices { slot[participants[index].id] = index }
        var position = [Int](repeating: -1, count: idCount)
        for index in plan.indices { position[plan[index].id] = index }
        withoutWarmUp = participants.lazy.map(\.id).filter { position[$0] < 0 }

        // `visitedBy[id]` is the last position whose walk reached `id`: one array for every walk.
        var visitedBy = [Int](repeating: -1, count: idCount)
        var waitStart = [0]
        waitStart.reserveCapacity(plan.count + 1)
        var waitedFor: [Int] = []
        var stack: [Int] = []
        for current in plan.indices {
            stack.append(contentsOf: dependencies(plan[current]))
            while let next = stack.popLast() {
                guard next >= 0, next < idCount, visitedBy[next] != current else { continue }
                visitedBy[next] = current
                if position[next] >= 0 {
                    waitedFor.append(position[next])  // an implementer: waited for, not walked through
                } else if slot[next] >= 0 {
                    stack.append(contentsOf: dependencies(participants[slot[next]]))
                }
            }
            waitStart.append(waitedFor.count)
        }

        // Reverse the edges by counting: each row of dependents fills in increasing position, so it stays
        // in delivery order.
        var dependentStart = [Int](repeating: 0, count: plan.count + 1)
        for dependency in waitedFor { dependentStart[dependency + 1] += 1 }
        for index in plan.indices { dependentStart[index + 1] += dependentStart[index] }
        var fill = dependentStart
        var dependentList = [Int](repeating: 0, count: waitedFor.count)
        for current in plan.indices {
            for dependency in waitedFor[waitStart[current]..<waitStart[current + 1]] {
                dependentList[fill[dependency]] = current
                fill[dependency] += 1
            }
        }
        self.waitStart = waitStart
        self.waitedFor = waitedFor
        self.dependentStart = dependentStart
        self.dependentList = dependentList
    }

    /// How many positions `position` waits for.
    package func waitCount(of position: Int) -> Int { waitStart[position + 1] - waitStart[position] }

    /// The positions `position` waits for, each once.
    package func waitsOn(_ position: Int) -> ArraySlice<Int> {
        waitedFor[waitStart[position]..<waitStart[position + 1]]
    }

    /// The positions that wait for `position`, in delivery order.
    package func dependents(of position: Int) -> ArraySlice<Int> {
        dependentList[dependentStart[position]..<dependentStart[position + 1]]
    }

    /// For each position, the positions it waits for.
    package var waitsOn: [[Int]] { (0..<waitStart.count - 1).map { Array(waitsOn($0)) } }

    /// For each position, the positions that wait for it.
    package var dependents: [[Int]] { (0..<dependentStart.count - 1).map { Array(dependents(of: $0)) } }
}

/// One warm-up stage in flight: its hooks, each in a runner task, and one watchdog for all their budgets.
///
/// Runners schedule the stage themselves. A runner that finishes a hook reports it (journal or observer),
/// records a failure, marks the participant ready and starts the dependents that were waiting only for
/// it, in delivery order: each in a runner task of its own, but the last, which it runs itself next. So
/// no step waits for the host actor, and a chain of modules that become ready one after another runs in
/// one task. A hook of an aborting participant that throws stops the stage.
///
/// The watchdog sleeps until the earliest deadline among the hooks in flight (a min-heap of deadlines,
/// from which hooks no longer in flight are dropped lazily), abandons every hook in flight past its
/// deadline — cancelling its runner — and hands it to the stage on the host actor, which degrades the
/// module and then stops the stage (`.fail`, aborting module) or counts the hook finished. It exits when
/// no budgeted hook is in flight; the next budgeted start, or a start due before its wake-up, starts a
/// new one.
///
/// The stage can also be stopped from outside (terminate, rollback): stopping cancels every hook in
/// flight and the watchdog; nothing starts afterwards, and a hook that returns is not reported. A hook
/// whose return was taken before the stop is reported; the stage ends once those reports are done.
final class WarmUpControl: Sendable {
    typealias Call = @Sendable () async throws -> Void

    /// A hook the watchdog abandoned, for the stage to handle.
    struct Timeout: Sendable {
        let position: Int
        let budget: Duration
        let elapsed: Duration
        /// The hook's wall-clock start, for its record.
        let wallStart: Duration
    }

    private struct State {
        /// How many warm-ups each position still waits for.
        var waiting: [Int]
        /// Whether each position's hook is in flight: started, and neither returned, abandoned, left nor
        /// stopped.
        var running: [Bool]
        /// Whether each position counts as finished: its hook returned or timed out, or it left.
        var finished: [Bool]
        var finishedCount = 0
        /// The positions of participants removed from the host during the stage.
        var left: [Bool]
        /// When each hook started, on the configured clock and on the wall clock.
        var started: [Duration]
        var wallStarts: [Duration]
        /// The runner task each position runs in, as an index into `runners`.
        var runnerOf: [Int]
        /// Runner tasks, once created; `cancelRequested` marks one to cancel as soon as it is.
        var runners: [Task<Void, Never>?] = []
        var cancelRequested: [Bool] = []
        /// The deadlines of the budgeted hooks started, earliest first; entries of hooks no longer in
        /// flight are dropped when they come to the top.
        var deadlines = DeadlineHeap()
        var watchdog: Task<Void, Never>?
        /// Identifies the current watchdog: an older one that is still awake exits.
        var watchdogGeneration = 0
        /// When the current watchdog means to wake up, or `nil` when none runs.
        var watchdogWake: Duration?
        /// Hooks abandoned on a timeout that the stage has not taken yet, and the stage waiting.
        var timeouts: [Timeout] = []
        var stage: Waiter?
        /// Runners waiting for a hook, with their slots: a released hook goes to one of them before a new
        /// runner task is made for it.
        var idle: [(runner: Int, waiter: RunnerWaiter)] = []
        /// Runners between taking a hook's return and finishing its report.
        var reporting = 0
        var failures: [(Int, HookFailure)] = []
        var stopFailure: HookFailure?
        var stopped = false
        var fromOutside = true

        /// Whether the stage is over: every hook finished or the stage stopped, and no report is pending.
        var isOver: Bool { (stopped || finishedCount == finished.count) && reporting == 0 }

        /// The stage, taken out, if it waits and has something to do.
        mutating func stageToWake() -> Waiter? {
            guard stage != nil, isOver || (!timeouts.isEmpty && !stopped) else { return nil }
            defer { stage = nil }
            return stage
        }

        /// A new runner slot.
        mutating func newRunner() -> Int {
            runners.append(nil)
            cancelRequested.append(false)
            return runners.count - 1
        }

        /// Takes the hook at `position` out of flight, returning its runner to cancel if it is known (else
        /// it is cancelled once it is).
        mutating func abandon(_ position: Int) -> Task<Void, Never>? {
            running[position] = false
            let runner = runnerOf[position]
            if let task = runners[runner] { return task }
            cancelRequested[runner] = true
            return nil
        }

        /// Puts the hook at `position` in flight in an idle runner, else in a new one, from `now`.
        mutating func place(
            _ position: Int,
            at now: Duration,
            wall: Duration,
            budget: Duration?,
            _ starts: inout Starts
        ) {
            if let (runner, waiter) = idle.popLast() {
                begin(position, in: runner, at: now, wall: wall, budget: budget, &starts)
                starts.runs.append(.handOff(position, waiter))
            } else {
                let runner = newRunner()
                begin(position, in: runner, at: now, wall: wall, budget: budget, &starts)
                starts.runs.append(.spawn(position, runner))
            }
        }

        /// Once the stage is over, lets the idle runners go.
        mutating func releaseIdleIfOver(_ starts: inout Starts) {
            guard stopped || finishedCount == finished.count, !idle.isEmpty else { return }
            starts.released += idle.map(\.waiter)
            idle.removeAll()
        }

        /// Puts the hook at `position` in flight in runner slot `runner`, from `now`, and notes in `starts`
        /// whether the watchdog must be replaced to meet its deadline.
        mutating func begin(
            _ position: Int,
            in runner: Int,
            at now: Duration,
            wall: Duration,
            budget: Duration?,
            _ starts: inout Starts
        ) {
            running[position] = true
            started[position] = now
            wallStarts[position] = wall
            runnerOf[position] = runner
            guard let budget else { return }
            let due = now + budget
            deadlines.insert(due, position)
            if let wake = watchdogWake, wake <= due { return }
            // No watchdog, or it would wake too late for this hook: a new one replaces it.
            watchdogGeneration += 1
            watchdogWake = due
            if let watchdog { starts.oldWatchdogs.append(watchdog) }
            watchdog = nil
            starts.newWatchdog = watchdogGeneration
        }

        /// Stops the stage, returning every task to cancel.
        mutating func stop() -> [Task<Void, Never>] {
            stopped = true
            var tasks: [Task<Void, Never>] = []
            for position in running.indices where running[position] {
                if let task = abandon(position) { tasks.append(task) }
            }
            if let watchdog { tasks.append(watchdog) }
            watchdog = nil
            watchdogWake = nil
            return tasks
        }
    }

    /// The stage waiting on the host actor. A class, so the state holds a plain optional reference (a
    /// checked continuation's layout is resilient: every optional check of one would go through its
    /// witnesses).
    private final class Waiter: Sendable {
        let continuation: CheckedContinuation<Void, Never>
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    }

    /// What starting hooks under the lock leaves to do outside it.
    private struct Starts {
        enum Run {
            /// Run the hook at the position in a new runner task, in the slot.
            case spawn(Int, Int)
            /// Hand the hook at the position to an idle runner.
            case handOff(Int, RunnerWaiter)
        }

        /// Hooks to start, in delivery order.
        var runs: [Run] = []
        /// Idle runners to let go: the stage is over.
        var released: [RunnerWaiter] = []
        /// Watchdogs to cancel, and the generation of a new one to start.
        var oldWatchdogs: [Task<Void, Never>] = []
        var newWatchdog: Int?
    }

    /// An idle runner, waiting for a hook to run, or `nil` to end. A class, so the state holds a plain
    /// reference.
    private final class RunnerWaiter: Sendable {
        let continuation: CheckedContinuation<Int?, Never>
        init(_ continuation: CheckedContinuation<Int?, Never>) { self.continuation = continuation }
    }

    /// The most runners kept idle, waiting for released hooks, instead of ending.
    private static let idleRunners = 16

    private let state: Locked<State>
    /// Serializes calls of an observer other than the journal, as when the host reported each step; counts
    /// them. (Not `Locked<Void>`: under the sanitizer build a zero-sized value shares its address with the
    /// lock's mutex pointer, and the sanitizer takes the two for one variable.)
    private let observing = Locked(0)
    private let plan: [Participant]
    private let graph: WarmUpGraph
    private let budgets: [Duration?]
    private let aborting: [Bool]
    private let call: @Sendable (Int) -> Call
    private let journal: DeliveryJournal?
    /// The stage's context in the journal (see `DeliveryJournal.openContext(_:plan:)`), while it runs.
    private let journalContext: Int
    /// The journal's origin to the clock's wall origin.
    private let journalShift: Duration
    private let observer: DeliveryObserver?
    private let readiness: Readiness
    private let time: ClockFunctions
    /// Each participant's position in the stage's plan, by participant id (`-1`: not in the plan).
    private let positions: [Int]

    /// A stage over `plan` (the warm-up implementers in delivery order) ordered by `graph`, each hook under
    /// its budget; `aborting` marks the positions whose failure stops the stage. Each hook call is
    /// journaled in `journal`, else reported to `observer`.
    init(
        plan: [Participant],
        graph: WarmUpGraph,
        budgets: [Duration?],
        aborting: [Bool],
        call: @escaping @Sendable (Int) -> Call,
        journal: DeliveryJournal?,
        observer: DeliveryObserver?,
        readiness: Readiness,
        time: ClockFunctions
    ) {
        let count = plan.count
        self.state = Locked(
            State(
                waiting: (0..<count).map(graph.waitCount(of:)),
                running: Array(repeating: false, count: count),
                finished: Array(repeating: false, count: count),
                left: Array(repeating: false, count: count),
                started: Array(repeating: .zero, count: count),
                wallStarts: Array(repeating: .zero, count: count),
                runnerOf: Array(repeating: -1, count: count)
            )
        )
        self.plan = plan
        self.graph = graph
        self.budgets = budgets
        self.aborting = aborting
        self.call = call
        self.journal = journal
        self.journalContext = journal?.openContext(.warmUp, plan: plan) ?? -1
        self.journalShift = journal.map { $0.origin.duration(to: time.wallOrigin) } ?? .zero
        self.observer = observer
        self.readiness = readiness
        self.time = time
        var positions = [Int](repeating: -1, count: (plan.lazy.map(\.id).max() ?? -1) + 1)
        for index in plan.indices { positions[plan[index].id] = index }
        self.positions = positions
    }

    // MARK: Starting

    /// Starts every hook that waits for nobody, each in a runner task, in delivery order.
    func startReady() {
        let (now, wall) = time.nowAndWall()
        let starts: Starts = state.withLock { state in
            var starts = Starts()
            for position in plan.indices where state.waiting[position] == 0 && !state.left[position] {
                state.place(position, at: now, wall: wall, budget: budgets[position], &starts)
            }
            return starts
        }
        launch(starts)
    }

    /// Starts the hooks, lets the runners go and replaces the watchdog, as `starts` asks.
    private func launch(_ starts: Starts) {
        for watchdog in starts.oldWatchdogs { watchdog.cancel() }
        var spawned: [(runner: Int, task: Task<Void, Never>)] = []
        for run in starts.runs {
            switch run {
            case .spawn(let position, let runner):
                spawned.append((runner, Task { await self.run(position, in: runner) }))
            case .handOff(let position, let waiter):
                waiter.continuation.resume(returning: position)
            }
        }
        for waiter in starts.released { waiter.continuation.resume(returning: nil) }
        if !spawned.isEmpty {
            let cancelled: [Task<Void, Never>] = state.withLock { state in
                var cancelled: [Task<Void, Never>] = []
                for (runner, task) in spawned {
                    state.runners[runner] = task
                    if state.cancelRequested[runner] { cancelled.append(task) }
                }
                return cancelled
            }
            for task in cancelled { task.cancel() }
        }
        if let generation = starts.newWatchdog {
            let watchdog = Task { await self.watch(generation) }
            let current = state.withLock { state in
                guard state.watchdogGeneration == generation, !state.stopped else { return false }
                state.watchdog = watchdog
                return true
            }
            if !current { watchdog.cancel() }
        }
    }

    // MARK: Running

    /// A runner task: runs the hook at `position`, then the dependent its return leaves to this runner,
    /// and so on; with none, waits idle for a hook released elsewhere, and ends with the stage.
    private func run(_ position: Int, in runner: Int) async {
        var position = position
        while true {
            let failure: (any Error)?
            do {
                try await call(position)()
                failure = nil
            } catch {
                failure = error
            }
            switch finish(position, in: runner, failure: failure) {
            case .run(let next):
                position = next
            case .idle:
                guard let next = await waitIdle(runner) else { return }
                position = next
            case .end:
                return  // its hook was abandoned (and it may be cancelled), or the stage stopped
            }
        }
    }

    /// What a runner does after a hook.
    private enum Next {
        case run(Int)
        case idle
        case end
    }

    /// Waits, as an idle runner, for a released hook to run; `nil` once the stage is over (or if enough
    /// runners wait already).
    private func waitIdle(_ runner: Int) async -> Int? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            let waits = state.withLock { state in
                guard !state.stopped, state.finishedCount < state.finished.count,
                    state.idle.count < Self.idleRunners
                else { return false }
                state.idle.append((runner, RunnerWaiter(continuation)))
                return true
            }
            if !waits { continuation.resume(returning: nil) }
        }
    }

    /// The hook at `position` returned: reports it, and, unless the stage stopped meanwhile, counts it
    /// finished, marks its participant ready and starts the dependents it released. Returns the one this
    /// runner runs next, if any.
    ///
    /// The call is reported between two steps under the stage's lock: taking the return, and the rest. So
    /// the report comes before any of its dependents', and the two runner threads do not wait on each
    /// other's report. With nobody to report to, it is one step.
    private func finish(_ position: Int, in runner: Int, failure: (any Error)?) -> Next {
        let (now, wall) = time.nowAndWall()
        let hookFailure = failure.map { HookFailure(participant: plan[position], event: .warmUp, error: $0) }
        let reports = journal != nil || observer != nil
        if reports {
            let taken: (elapsed: Duration, wallStart: Duration)? = state.withLock { state in
                guard state.running[position] else { return nil }  // abandoned, left, or stopped: not reported
                state.running[position] = false
                state.reporting += 1
                return (now - state.started[position], state.wallStarts[position])
            }
            guard let taken else { return .end }
            record(position, wallStart: taken.wallStart, elapsed: taken.elapsed, error: failure)
        }
        var next: Int?
        let outcome: (Starts, [Task<Void, Never>], Waiter?, stopped: Bool)? =
            state.withLock { state in
                if reports {
                    state.reporting -= 1
                } else {
                    guard state.running[position] else { return nil }  // abandoned, left, or stopped
                    state.running[position] = false
                }
                var starts = Starts()
                var cancelled: [Task<Void, Never>] = []
                // Removed meanwhile: it counts as finished already, whatever its hook did.
                if !state.stopped, !state.finished[position] {
                    if let hookFailure {
                        state.failures.append((position, hookFailure))
                        if aborting[position] {
                            state.stopFailure = hookFailure
                            state.fromOutside = false
                            cancelled = state.stop()
                        }
                    }
                    if !state.stopped {
                        let ready = count(position, &state)
                        for (index, dependent) in ready.enumerated() {
                            let budget = budgets[dependent]
                            if index == ready.count - 1 {
                                // The last one ready continues in this runner.
                                state.begin(dependent, in: runner, at: now, wall: wall, budget: budget, &starts)
                                next = dependent
                            } else {
                                state.place(dependent, at: now, wall: wall, budget: budget, &starts)
                            }
                        }
                    }
                } else if let hookFailure, state.stopped, !state.finished[position] {
                    // Taken before the stage stopped: its failure is reported with the others.
                    state.failures.append((position, hookFailure))
                }
                state.releaseIdleIfOver(&starts)
                return (starts, cancelled, state.stageToWake(), state.stopped)
            }
        guard let (starts, cancelled, stage, stopped) = outcome else { return .end }
        for task in cancelled { task.cancel() }
        stage?.continuation.resume()
        launch(starts)
        if let next { return .run(next) }
        return stopped ? .end : .idle
    }

    /// Counts the hook at `position` finished and marks its participant ready; returns the dependents
    /// that waited only for it, in delivery order. Called under the lock (readiness has its own, never
    /// held while taking this one).
    private func count(_ position: Int, _ state: inout State) -> [Int] {
        state.finished[position] = true
        state.finishedCount += 1
        readiness.markReady(plan[position].id)
        var ready: [Int] = []
        for dependent in graph.dependents(of: position) {
            state.waiting[dependent] -= 1
            if state.waiting[dependent] == 0, !state.left[dependent] { ready.append(dependent) }
        }
        return ready
    }

    /// Reports one hook call: to the journal directly, else to the observer, one call at a time.
    private func record(_ position: Int, wallStart: Duration, elapsed: Duration, error: (any Error)?) {
        if let journal {
            journal.record(
                context: journalContext,
                at: position,
                startOffset: wallStart + journalShift,
                duration: elapsed,
                result: nil,
                error: error
            )
        } else if let observer {
            let record = DeliveryRecord(
                event: .warmUp,
                participant: plan[position],
                start: time.wall(wallStart),
                duration: elapsed,
                result: nil,
                error: error
            )
            observing.withLock { reports in
                observer(record)
                reports += 1
            }
        }
    }

    // MARK: Timeouts

    /// The watchdog: sleeps until the earliest deadline in flight, then abandons every hook past its
    /// deadline and hands it to the stage.
    private func watch(_ generation: Int) async {
        while true {
            let wake: Duration? = state.withLock { state in
                guard state.watchdogGeneration == generation, !state.stopped else { return nil }
                while let earliest = state.deadlines.first, !state.running[earliest.position] {
                    state.deadlines.removeFirst()
                }
                state.watchdogWake = state.deadlines.first?.due
                return state.watchdogWake
            }
            guard let wake else { return }
            do { try await time.sleep(wake) } catch { return }
            let now = time.now()
            let (late, stage): ([Task<Void, Never>], Waiter?) = state.withLock { state in
                guard state.watchdogGeneration == generation, !state.stopped else { return ([], nil) }
                var late: [Task<Void, Never>] = []
                while let earliest = state.deadlines.first, earliest.due <= now {
                    state.deadlines.removeFirst()
                    let position = earliest.position
                    guard state.running[position] else { continue }
                    if let runner = state.abandon(position) { late.append(runner) }
                    state.timeouts.append(
                        Timeout(
                            position: position,
                            budget: budgets[position] ?? .zero,
                            elapsed: now - state.started[position],
                            wallStart: state.wallStarts[position]
                        )
                    )
                }
                return (late, state.stageToWake())
            }
            for runner in late { runner.cancel() }
            stage?.continuation.resume()
        }
    }

    /// The hooks abandoned on a timeout since the last call, in the order they were; waits for one. Empty
    /// once the stage is over: every hook finished, or the stage stopped.
    func nextTimeouts() async -> [Timeout] {
        while true {
            let timeouts: [Timeout]? = state.withLock { state in
                if !state.timeouts.isEmpty, !state.stopped {
                    defer { state.timeouts.removeAll() }
                    return state.timeouts
                }
                return state.isOver ? [] : nil
            }
            if let timeouts { return timeouts }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    guard state.isOver || (!state.timeouts.isEmpty && !state.stopped) else {
                        state.stage = Waiter(continuation)
                        return false
                    }
                    return true
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Reports a timeout of the hook at `position` like a hook call, one report at a time.
    func report(_ timeout: HookTimeout, of position: Int, since wallStart: Duration) {
        if let journal {
            journal.record(
                context: journalContext,
                at: position,
                startOffset: wallStart + journalShift,
                duration: timeout.elapsed,
                result: nil,
                error: timeout
            )
        } else {
            record(position, wallStart: wallStart, elapsed: timeout.elapsed, error: timeout)
        }
    }

    /// The stage handled the timeout of the hook at `position`: records `failure`, then stops the stage
    /// if `stopping`, else counts the hook finished, so its dependents start.
    func settle(_ position: Int, _ failure: HookFailure, stopping: Bool) {
        let (starts, cancelled): (Starts, [Task<Void, Never>]) = state.withLock { state in
            guard !state.stopped, !state.finished[position] else { return (Starts(), []) }
            state.failures.append((position, failure))
            if stopping {
                state.stopFailure = failure
                state.fromOutside = false
                let cancelled = state.stop()
                var starts = Starts()
                state.releaseIdleIfOver(&starts)
                return (starts, cancelled)
            }
            let (now, wall) = time.nowAndWall()
            var starts = Starts()
            for dependent in count(position, &state) {
                state.place(dependent, at: now, wall: wall, budget: budgets[dependent], &starts)
            }
            state.releaseIdleIfOver(&starts)
            return (starts, [])
        }
        for task in cancelled { task.cancel() }
        launch(starts)
    }

    // MARK: Leaving and stopping

    /// The participant `id` was removed from the host: cancel its hook if it runs, never start it, and
    /// count it as finished so the stage can end.
    func leave(_ id: Int) {
        guard id < positions.count, positions[id] >= 0 else { return }
        let position = positions[id]
        let (cancelled, starts, stage): (Task<Void, Never>?, Starts, Waiter?) =
            state.withLock { state in
                guard !state.stopped else { return (nil, Starts(), nil) }
                state.left[position] = true
                let cancelled = state.running[position] ? state.abandon(position) : nil
                guard !state.finished[position] else { return (cancelled, Starts(), nil) }
                // Counted finished without being ready. Its dependents have left already (a module others
                // depend on cannot be removed), so this starts nothing in practice.
                state.finished[position] = true
                state.finishedCount += 1
                let (now, wall) = time.nowAndWall()
                var starts = Starts()
                for dependent in graph.dependents(of: position) {
                    state.waiting[dependent] -= 1
                    guard state.waiting[dependent] == 0, !state.left[dependent] else { continue }
                    state.place(dependent, at: now, wall: wall, budget: budgets[dependent], &starts)
                }
                state.releaseIdleIfOver(&starts)
                return (cancelled, starts, state.stageToWake())
            }
        cancelled?.cancel()
        stage?.continuation.resume()
        launch(starts)
    }

    func hasLeft(_ position: Int) -> Bool { state.withLock { $0.left[position] } }

    var isStopped: Bool { state.withLock { $0.stopped } }
    var wasStoppedFromOutside: Bool { state.withLock { $0.stopped && $0.fromOutside } }

    /// Every failure in delivery order, and the one that stopped the stage, if any.
    var outcome: (failures: [HookFailure], stop: HookFailure?) {
        state.withLock { state in (state.failures.sorted { $0.0 < $1.0 }.map(\.1), state.stopFailure) }
    }

    /// Cancels everything in flight and the watchdog, and wakes the stage. Idempotent.
    func stop() {
        let (tasks, starts, stage): ([Task<Void, Never>], Starts, Waiter?) = state.withLock { state in
            let tasks = state.stop()
            var starts = Starts()
            state.releaseIdleIfOver(&starts)
            return (tasks, starts, state.stageToWake())
        }
        for task in tasks { task.cancel() }
        launch(starts)  // lets the idle runners go
        stage?.continuation.resume()
    }

    /// Marks the coming `stop()` as the stage's own ending (not a stop from outside).
    func finishing() { state.withLock { $0.fromOutside = false } }

    /// The stage is over and stopped: nothing more is journaled in its context.
    func close() {
        journal?.closeContext(journalContext)
    }
}

/// A binary min-heap of deadlines (on the configured clock) with the position of their hook: the
/// watchdog's agenda.
struct DeadlineHeap {
    private var entries: [(due: Duration, position: Int)] = []

    var first: (due: Duration, position: Int)? { entries.first }

    /// Earlier deadlines first; among equal ones, delivery order.
    private static func precedes(_ a: (due: Duration, position: Int), _ b: (due: Duration, position: Int)) -> Bool {
        a.due != b.due ? a.due < b.due : a.position < b.position
    }

    mutating func insert(_ due: Duration, _ position: Int) {
        entries.append((due, position))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        guard entries.count > 1 else {
            entries.removeAll()
            return
        }
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, Self.precedes(entries[left], entries[smallest]) { smallest = left }
            if right < entries.count, Self.precedes(entries[right], entries[smallest]) { smallest = right }
            guard smallest != parent else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

/// How a watchdog or a runner ended one supervised run.
private enum WatchEnding: Sendable {
    case finished
    /// The hook at the position was expired after running the duration (from the wall-clock instant);
    /// its runner is already superseded by `generation`.
    case timedOut(Int, Duration, wallStart: Duration, generation: Int)
    /// The overall deadline passed; everything is superseded. The hook in progress, if any.
    case deadline(Int?, Duration, wallStart: Duration?)
}

/// The combined result of a built-in event from its participants' answers.
private func booleanResult(_ event: LifecycleEvent, _ answers: [any Sendable]) -> Bool {
    guard case .anyTrue(let whenUnanswered) = event.resultRule else { return false }
    let bools = answers.compactMap { $0 as? Bool }
    return bools.isEmpty ? whenUnanswered : bools.contains(true)
}

/// The results of the two launch events.
public struct LaunchResult: Sendable, Hashable {
    /// The OR-combined result of ``LifecycleEvent/willFinishLaunching`` (`true` if nobody implements it).
    public var willFinishLaunching: Bool
    /// The OR-combined result of ``LifecycleEvent/didFinishLaunching`` (`true` if nobody implements it).
    public var didFinishLaunching: Bool

    public init(willFinishLaunching: Bool, didFinishLaunching: Bool) {
        self.willFinishLaunching = willFinishLaunching
        self.didFinishLaunching = didFinishLaunching
    }
}
