/// What a participant receives from its host: the launch options, and a way to emit events.
///
/// Modules receive the context in `init(context:)` and again in every hook.
public struct LifecycleContext: Sendable {
    /// The arguments, environment and typed values the program was launched with.
    public let launchOptions: LaunchOptions
    /// Queues events and transitions on the host from inside a hook, without waiting for them.
    public let events: EventEmitter

    /// The state of the host this context belongs to (`notRunning` for a context that belongs to no host).
    ///
    /// Inside a hook this is the state of the transition being delivered: a "will" event sees the state
    /// being left, a "did" event the state being entered, and `willTerminate` sees `terminating`.
    public var applicationState: ApplicationState { events.mailbox?.state ?? .notRunning }

    /// Creates a context that belongs to no host, for creating and testing a module on its own.
    ///
    /// Events posted through such a context cannot be delivered; each post writes a warning to standard
    /// error instead of being dropped silently.
    public init(launchOptions: LaunchOptions = LaunchOptions()) {
        self.launchOptions = launchOptions
        self.events = EventEmitter(mailbox: nil)
        self.observer = nil
        self.watchdog = .standalone
        self.faults = nil
    }

    /// What the host reports each delivery to (its journal, then `Configuration.onDelivery`), for what is
    /// built on the host and delivers on its own (messages); `nil` when nothing listens.
    @usableFromInline package let observer: DeliveryObserver?

    /// The host's watchdog, on its configured clock: every time limit of what is built on the host
    /// (a message's budget, an interceptor's, a scope's end) is watched here, so a test's `VirtualClock`
    /// moves them all. A context that belongs to no host watches on the continuous clock.
    package let watchdog: HostWatchdog

    /// The host's fault injection, for what runs calls of its own (work): `nil` outside the test kit.
    package let faults: FaultInjection?

    package init(
        launchOptions: LaunchOptions,
        mailbox: HostMailbox,
        observer: DeliveryObserver? = nil,
        watchdog: HostWatchdog,
        faults: FaultInjection? = nil
    ) {
        self.launchOptions = launchOptions
        self.events = EventEmitter(mailbox: mailbox)
        self.observer = observer
        self.watchdog = watchdog
        self.faults = faults
    }
}

/// Queues requests on an ``ApplicationHost`` without waiting for them: the way to emit an event from
/// inside a hook.
///
/// A posted request joins the host's single queue behind everything emitted before it, so it is
/// delivered after the request in progress completes, never nested inside it. Posting never blocks and
/// never waits. Errors from a posted request (an invalid transition, hooks that threw) go to
/// ``ApplicationHost/Configuration/onUnobservedError``, because nobody awaits them.
///
/// ```swift
/// func didReceiveMemoryWarning(_ context: LifecycleContext) {
///     cache.removeAll()
///     context.events.post(CacheWasPurged(entries: 1_200))
/// }
/// ```
public struct EventEmitter: Sendable {
    package let mailbox: HostMailbox?

    /// Queues a transition or a built-in event on the host.
    public func post(_ request: HostRequest, file: String = #fileID, line: Int = #line) {
        submit(request) { host in await host.process(request, file: file, line: line) }
    }

    /// Queues a custom event on the host. Its combined result is discarded; its errors go to
    /// ``ApplicationHost/Configuration/onUnobservedError``.
    public func post<E: CustomEvent>(_ event: E, file: String = #fileID, line: Int = #line) {
        submit(.custom(LifecycleEvent(custom: E.self))) { host in
            await host.deliverCustom(event, file: file, line: line).map { _ in () }
        }
    }

    private func submit(
        _ request: HostRequest,
        _ work: @escaping @Sendable (isolated ApplicationHost) async -> Result<Void, LifecycleError>
    ) {
        guard let mailbox else {
            printWarning(
                "LifecycleContext: \(request) was posted through a context that belongs to no ApplicationHost, "
                    + "so it cannot be delivered. Use the context a host gave the module."
            )
            return
        }
        let accepted = mailbox.submit { host in
            // A posted request has no asking task to capture a context from.
            let outcome =
                host.instruments.isEmpty
                ? await work(host) : await host.instrumented(request, host.instruments.map { _ in nil }, work)
            if case .failure(let error) = outcome {
                host.configuration.onUnobservedError(error)
            }
        }
        if !accepted {
            printWarning(
                "LifecycleContext: \(request) was posted after its ApplicationHost was deallocated, "
                    + "so it cannot be delivered. Keep the host alive for as long as modules post events."
            )
        }
    }
}
