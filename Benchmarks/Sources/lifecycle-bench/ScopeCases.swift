import LifecycleCore
import LifecycleProxy
import LifecycleScopes

// The scope rows: a request scope begun, activated and ended with `withScope`, in a host with ten global
// actions for `.request`, adopting three behaviors; against a hand-written loop calling the same 52 hooks
// in the same order. Measured per request at several numbers of concurrent tasks, each looping requests.

/// `count` requests, each `withScope(.request, "r", adopting: A(), B(), C()) { _ in }`: begin, activate,
/// the empty body, end. Returns how many threw.
@inline(never)
func scopedRequests(_ scopes: ScopeRegistry, _ count: Int) async -> Int {
    var failures = 0
    for _ in 0..<count {
        do {
            try await scopes.withScope(
                .request,
                "r",
                adopting: RequestBehaviorA(),
                RequestBehaviorB(),
                RequestBehaviorC()
            ) { _ in }
        } catch {
            failures += 1
        }
    }
    return failures
}

/// `count` requests in a scope that adopts nothing: `withScope(.request, "r") { _ in }`. In a host without
/// actions it is the fixed cost of a scope; with the ten actions, the scope and the actions. Returns how many
/// threw.
@inline(never)
func unadoptedRequests(_ scopes: ScopeRegistry, _ count: Int) async -> Int {
    var failures = 0
    for _ in 0..<count {
        do {
            try await scopes.withScope(.request, "r") { _ in }
        } catch {
            failures += 1
        }
    }
    return failures
}

/// The hand-written twin of ``scopedRequests(_:_:)``: what `withScope` delivers, called directly. Per
/// request, three fresh behaviors; `didBegin` to the ten actions through their existentials by index, then
/// to A, B, C; `didActivate` the same; `willDeactivate` to C, B, A, then to the actions from the last to the
/// first; `willEnd` the same. Every call awaited, and a throw counted, as the scope counts it. `scope` is an
/// idle scope made once per task: the hooks receive a scope, and making one is the library's work.
@inline(never)
func requestsByHand(_ actions: [any ScopeAction], _ scope: Scope, _ count: Int) async -> Int {
    var failures = 0
    for _ in 0..<count {
        var a = RequestBehaviorA()
        var b = RequestBehaviorB()
        var c = RequestBehaviorC()

        for index in actions.indices {
            do { try await actions[index].didBegin(scope) } catch { failures += 1 }
        }
        do { try await a.didBegin(scope) } catch { failures += 1 }
        do { try await b.didBegin(scope) } catch { failures += 1 }
        do { try await c.didBegin(scope) } catch { failures += 1 }

        for index in actions.indices {
            do { try await actions[index].didActivate(scope) } catch { failures += 1 }
        }
        do { try await a.didActivate(scope) } catch { failures += 1 }
        do { try await b.didActivate(scope) } catch { failures += 1 }
        do { try await c.didActivate(scope) } catch { failures += 1 }

        do { try await c.willDeactivate(scope) } catch { failures += 1 }
        do { try await b.willDeactivate(scope) } catch { failures += 1 }
        do { try await a.willDeactivate(scope) } catch { failures += 1 }
        for index in actions.indices.reversed() {
            do { try await actions[index].willDeactivate(scope) } catch { failures += 1 }
        }

        do { try await c.willEnd(scope) } catch { failures += 1 }
        do { try await b.willEnd(scope) } catch { failures += 1 }
        do { try await a.willEnd(scope) } catch { failures += 1 }
        for index in actions.indices.reversed() {
            do { try await actions[index].willEnd(scope) } catch { failures += 1 }
        }
    }
    return failures
}

/// What the scope rows share across numbers of tasks: the hosts, and the baseline's actions and scopes. Built
/// once, before anything is measured.
struct ScopeFixture {
    /// Built with `withScopes(actions:)`: the default end budget, 10 s, so the registry's watchdog watches
    /// every end.
    let budgeted: ApplicationHost
    /// Built with `withScopes(actions:endBudget: nil)`.
    let unbudgeted: ApplicationHost
    /// Built with `withScopes(actions: [], endBudget: nil)`: scopes with no global action, for the parts rows.
    let actionless: ApplicationHost
    /// New instances of the ten actions, in the registry's delivery order.
    let actions: [any ScopeAction]
    /// One idle scope per task for the hand-written loop, never begun (an idle scope is not a leak).
    let handScopes: [Scope]

    init(maximumTasks: Int) {
        func host(defaultBudget: Bool, actions: [any ScopeAction.Type] = scopeActionTypes) -> ApplicationHost {
            let manifest = ModuleManifest(name: "scopes", [ScopeHostModule.self])
            do {
                return try ApplicationHost(
                    manifest: defaultBudget
                        ? manifest.withScopes(actions: actions)
                        : manifest.withScopes(actions: actions, endBudget: nil),
                    launchOptions: LaunchOptions(),
                    configuration: ApplicationHost.Configuration(
                        hookBudget: nil,
                        terminateDeadline: nil,
                        journalCapacity: 0
                    )
                )
            } catch {
                fatalError("scopes: the host did not build: \(error)")
            }
        }
        budgeted = host(defaultBudget: true)
        unbudgeted = host(defaultBudget: false)
        actionless = host(defaultBudget: false, actions: [])
        guard let scopes = unbudgeted.scopes, let other = budgeted.scopes else {
            fatalError("scopes: a host has no scope registry")
        }
        guard other.endBudget == ScopeRegistry.defaultEndBudget, scopes.endBudget == nil else {
            fatalError(
                "scopes: the end budgets are \(String(describing: other.endBudget)) and "
                    + "\(String(describing: scopes.endBudget)), expected the default and none"
            )
        }
        let order = scopes.actions(for: .request)
        guard order.count == scopeActionTypes.count, other.actions(for: .request) == order else {
            fatalError("scopes: the hosts deliver to \(order), expected the \(scopeActionTypes.count) actions")
        }
        var byName: [String: any ScopeAction.Type] = [:]
        for type in scopeActionTypes { byName[type.actionName] = type }
        let context = LifecycleContext()
        actions = order.map { name in
            guard let type = byName[name] else { fatalError("scopes: no action named \(name)") }
            return type.init(context: context)
        }
        handScopes = (0..<maximumTasks).map { _ in scopes.scope(.request, "by hand", parent: nil) }
    }
}

/// The module the scope rows' hosts are built around: a host needs one.
struct ScopeHostModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// The scope rows at `tasks` concurrent tasks: one repetition is one request, so the times are wall time per
/// request, whatever the number of tasks.
func scopeCases(_ fixture: ScopeFixture, tasks: Int, only: [String]) -> [BenchCase] {
    func selected(_ system: System) -> Bool { only.isEmpty || only.contains { system.id.hasPrefix($0) } }
    /// Checks what a measurement delivered: no throw and no fault at any number of tasks, and with one task,
    /// where the tally is exact, every hook of every request (`perRequest` hook calls each).
    func check(_ system: System, failures: Int, ticks: Int, requests: Int, perRequest: Int = scopeTicksPerRequest) {
        if failures != 0 { fatalError("\(system.id) at \(tasks) tasks: \(failures) of \(requests) requests threw") }
        if ScopeTally.faultCount != 0 { fatalError("\(system.id): a behavior saw its hooks out of order") }
        if tasks == 1, ticks != requests * perRequest {
            fatalError(
                "\(system.id) made \(ticks) hook calls for \(requests) requests, expected "
                    + "\(requests * perRequest): the requests do not reach every hook"
            )
        }
    }
    /// A row of scopes made in `host`'s registry, adopting the three behaviors or nothing.
    func scoped(_ system: System, _ host: ApplicationHost, adopting: Bool = true) -> BenchCase {
        guard let scopes = host.scopes else { fatalError("\(system.id): the host has no scopes") }
        let perRequest = (scopes.actions(for: .request).count + (adopting ? 3 : 0)) * 4
        return BenchCase(system: system, modules: tasks, expectedTicks: nil) { meter, iterations in
            let before = ScopeTally.count
            let failures = await runRequests(tasks: tasks, requests: iterations, meter: meter) { _, count in
                adopting ? await scopedRequests(scopes, count) : await unadoptedRequests(scopes, count)
            }
            check(
                system,
                failures: failures,
                ticks: ScopeTally.count - before,
                requests: iterations,
                perRequest: perRequest
            )
            // The host lives as long as its case: its registry's actions belong to it.
            withExtendedLifetime(host) {}
        }
    }
    var cases: [BenchCase] = []
    if selected(.scopeDefaultBudget) { cases.append(scoped(.scopeDefaultBudget, fixture.budgeted)) }
    if selected(.scopeNoBudget) { cases.append(scoped(.scopeNoBudget, fixture.unbudgeted)) }
    if selected(.scopePartsBare) { cases.append(scoped(.scopePartsBare, fixture.actionless, adopting: false)) }
    if selected(.scopePartsActions) {
        cases.append(scoped(.scopePartsActions, fixture.unbudgeted, adopting: false))
    }
    if selected(.scopePartsBehaviors) { cases.append(scoped(.scopePartsBehaviors, fixture.actionless)) }
    if selected(.scopeHand) {
        let actions = fixture.actions
        let handScopes = fixture.handScopes
        cases.append(
            BenchCase(system: .scopeHand, modules: tasks, expectedTicks: nil) { meter, iterations in
                let before = ScopeTally.count
                let failures = await runRequests(tasks: tasks, requests: iterations, meter: meter) { task, count in
                    await requestsByHand(actions, handScopes[task], count)
                }
                check(.scopeHand, failures: failures, ticks: ScopeTally.count - before, requests: iterations)
            }
        )
    }
    return cases
}
