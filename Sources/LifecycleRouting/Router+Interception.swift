import LifecycleCore

// How the interceptors judge an intent: one turn each, in order, acting on each decision; and, when budgets
// apply, the task and the watchdog that keep a hung interceptor from hanging its caller.
extension Router {
    /// Runs the interceptors on `intent` until every one continued; switches and restarts as they decide.
    func intercept(
        _ intent: RouteIntent,
        _ interceptors: [AnyInterceptor],
        chain: RouteChainLink?,
        table: Table,
        context: LifecycleContext,
        watch: StepDeadline?
    ) async throws(RouteError) {
        let box = DecisionBox()
        let shared = RouteContext(intent: intent, lifecycle: context, router: self, link: chain)
        var turn: UInt64 = 0
        var restarts = 0
        var index = 0
        while index < interceptors.count {
            let interceptor = interceptors[index]
            turn += 1
            box.begin(turn)
            if let watch, let budget = interceptor.budget ?? interceptorBudget {
                watch.begin(StepDeadline.Step(name: interceptor.name, budget: budget))
            }
            let decision = InterceptorDecision(box: box, turn: turn)
            switch interceptor.body {
            case .global(let global): await global.intercept(intent, context: shared, decision: decision)
            case .own(let call): await call(intent, shared, decision)
            }
            // Timed out: the caller has its error already; nothing more runs, whatever was decided.
            if let watch, watch.end() || Task.isCancelled { throw .cancelled(intent.name) }
            let code = box.end(turn)
            if code == DecisionBox.proceeded {
                index += 1
                continue
            }
            switch box.decision(of: turn, code: code) {
            case nil:
                throw .neverDecided(intent.description, by: interceptor.name)
            case .continue?:
                index += 1
            case .reject(let reason)?:
                throw .rejected(intent.description, by: interceptor.name, reason)
            case .twice(let first, let second)?:
                throw .decidedTwice(intent.description, by: interceptor.name, first: first, second: second)
            case .switch(let target, let then)?:
                let note = (restarts > 0 ? "restart \(restarts), " : "") + "switched by \(interceptor.name)"
                do {
                    _ = try await perform(
                        target,
                        chain: RouteChainLink(intent, note: note, parent: chain),
                        table: table,
                        context: context
                    )
                } catch {
                    throw error.switched(from: intent.description, by: interceptor.name)
                }
                switch then {
                case .continue:
                    index += 1
                case .restart:
                    restarts += 1
                    guard restarts <= Self.maximumRestarts else {
                        throw .loopLimit(
                            intent.name,
                            chain: (chain?.descriptions ?? [])
                                + (0...restarts).map {
                                    $0 == 0 ? intent.description : "\(intent.description) (restart \($0))"
                                },
                            limit: "\(Self.maximumRestarts) restarts"
                        )
                    }
                    index = 0
                }
            }
        }
    }

    /// Runs `body` in a task of its own, watched on the host's clock: if an interceptor overruns its budget,
    /// the opening fails with ``RouteError/Code/timedOut`` at once, and the task is cancelled and left to
    /// finish.
    func supervised(
        _ intent: RouteIntent,
        context: LifecycleContext,
        _ body: @escaping @Sendable (StepDeadline) async throws(RouteError) -> Void
    ) async throws(RouteError) {
        let (outcome, overrun) = await context.watchdog.supervise { (steps: StepDeadline) async throws in
            try await body(steps)
        }
        switch outcome {
        case .finished(.success, _):
            return
        case .finished(.failure(let error as RouteError), _):
            throw error
        case .finished(.failure, _):
            throw .cancelled(intent.description)  // `body` throws only RouteError
        case .abandoned:
            guard let overrun else { throw .cancelled(intent.description) }
            throw .timedOut(intent.description, by: overrun.name, budget: overrun.budget)
        }
    }
}
