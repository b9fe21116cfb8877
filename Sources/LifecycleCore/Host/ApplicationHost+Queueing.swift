extension ApplicationHost {
    // MARK: - Queueing

    /// Marks the task of the job being processed (and the tasks it spawns), to recognise a host method
    /// awaited from inside a hook while that hook's job is still running.
    @TaskLocal private static var currentJob: HostMailbox.JobToken?

    nonisolated func transition(_ request: HostRequest, file: String, line: Int) async throws(LifecycleError) {
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
        let reply = OneShot<Result<T, LifecycleError>>()
        let mailbox = self.mailbox
        // Read here, in the asking task: what the instruments need from it (its trace context). Without
        // instruments the job runs `work` itself, as small as it was before there were instruments.
        let run: @Sendable (isolated ApplicationHost) async -> Result<T, LifecycleError>
        if instruments.isEmpty {
            run = work
        } else {
            let captured = captureInstrumentContexts()
            run = { host in await host.instrumented(request, captured, work) }
        }
        mailbox.submit { host in
            let outcome = await run(host)
            // Refused when the asking task was cancelled first: nobody awaits this failure.
            if !reply.settle(outcome), case .failure(let error) = outcome {
                host.configuration.onUnobservedError(error)
            }
        }
        let outcome = await reply.value(orOnCancel: {
            .failure(LifecycleError(code: .cancelled, request: request, state: mailbox.state, file: file, line: line))
        })
        return try outcome.get()
    }

    nonisolated func checkNotReentrant(_ request: HostRequest, file: String, line: Int) throws(LifecycleError) {
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
                // A module that crossed its quarantine threshold leaves before the next request starts.
                if quarantineDue { await quarantineDueModules() }
            }
        }
    }

}
