extension ApplicationHost {
    // MARK: - Instruments (`Configuration.instruments`; called only when there is at least one)

    /// What each instrument captures in the task that asks for a request.
    nonisolated func captureInstrumentContexts() -> [(any Sendable)?] {
        instruments.map { $0.captureContext() }
    }

    /// Runs `work` for `request` between the instruments' `requestStarted` and `requestFinished`, with
    /// `captured` as the context of the events it delivers.
    func instrumented<T: Sendable>(
        _ request: HostRequest,
        _ captured: [(any Sendable)?],
        _ work: (isolated ApplicationHost) async -> Result<T, LifecycleError>
    ) async -> Result<T, LifecycleError> {
        requestContext = captured
        for (instrument, context) in zip(instruments, captured) {
            instrument.requestStarted(request, context: context)
        }
        let outcome = await work(self)
        let error: LifecycleError? =
            if case .failure(let error) = outcome { error } else { nil }
        for instrument in instruments { instrument.requestFinished(request, error: error) }
        requestContext = []
        return outcome
    }

    /// Tells the instruments `event` starts, with the request's contexts; returns when.
    func instrumentEventStarted(_ event: LifecycleEvent, state: ApplicationState) -> ContinuousClock.Instant {
        instrumentEventStarted(event, state: state, contexts: requestContext)
    }

    /// Tells the instruments `event` starts, with `contexts`; returns when.
    nonisolated func instrumentEventStarted(
        _ event: LifecycleEvent,
        state: ApplicationState,
        contexts: [(any Sendable)?]
    ) -> ContinuousClock.Instant {
        for (index, instrument) in instruments.enumerated() {
            instrument.eventStarted(
                event,
                state: state,
                context: contexts.indices.contains(index) ? contexts[index] : nil
            )
        }
        return .now
    }

    /// Tells the instruments how an event of the request in progress ended.
    func instrumentEventFinished(_ summary: EventSummary) {
        instrumentEventFinished(summary, contexts: requestContext)
    }

    /// Tells the instruments how an event ended, with `contexts`.
    nonisolated func instrumentEventFinished(_ summary: EventSummary, contexts: [(any Sendable)?]) {
        for (index, instrument) in instruments.enumerated() {
            instrument.eventFinished(summary, context: contexts.indices.contains(index) ? contexts[index] : nil)
        }
    }
}
