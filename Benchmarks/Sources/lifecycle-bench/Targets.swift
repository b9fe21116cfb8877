/// The issue's targets, judged on what this run measured.
///
/// Every target is judged on the minima (the stable statistic here); the medians are in the tables.
func evaluateTargets(_ table: ResultTable) -> [TargetCheck] {
    var checks: [TargetCheck] = []
    let sizes = table.sizes

    // 1. The synchronous form (`SyncDidBecomeActive`) against the physical limit.
    if let proxy = table.ratio(.proxySyncEvent, .concreteLoop, 1_000) {
        let loop = table.ratio(.existentialLoop, .concreteLoop, 1_000).map {
            "; a hand-written sync existential index loop is \(significant($0.min))×"
        }
        checks.append(
            TargetCheck(
                name: "sync fan-out vs limit, N=1,000",
                requirement: "≤ 3× the concrete loop (min)",
                measured: "\(significant(proxy.min))× (median \(significant(proxy.median))×)\(loop ?? "")",
                met: proxy.min <= 3
            )
        )
    } else {
        checks.append(notMeasured("sync fan-out vs limit, N=1,000", "≤ 3× the concrete loop (min)"))
    }

    // 1b. Issue 31, item 4: discovered modules keep the sync fan-out's speed without the `Sync…` protocols
    //     (the synchronous functions the capability table registers against the protocols they replace).
    let twinName = "sync fan-out without Sync… protocols, discovered modules, every N"
    let twinPairs: [(System, System)] = [
        (.proxySyncDiscovered, .proxySyncDiscoveredTwin),
        (.proxySyncDiscoveredDidFinishLaunching, .proxySyncDiscoveredTwinDidFinishLaunching),
        (.proxySyncDiscoveredOpenURL, .proxySyncDiscoveredTwinOpenURL),
    ]
    let twinRatios = twinPairs.flatMap { pair in
        sizes.compactMap { n in table.ratio(pair.0, pair.1, n).map { (pair.0, n, $0.min) } }
    }
    if twinRatios.isEmpty {
        checks.append(notMeasured(twinName, "≤ 1.10× the Sync… protocol path (min)"))
    } else {
        let worst = twinRatios.max { $0.2 < $1.2 }!
        checks.append(
            TargetCheck(
                name: twinName,
                requirement: "≤ 1.10× the Sync… protocol path (min)",
                measured: "\(significant(twinRatios.map(\.2).min()!))–\(significant(worst.2))× (worst: \(worst.0.id), "
                    + "N=\(grouped(worst.1)))",
                met: worst.2 <= 1.10
            )
        )
    }

    // 2. The async proxy against the same loop written by hand.
    if let ratio = table.ratio(.proxyEvent, .asyncLoop, 1_000) {
        let large = table.ratio(.proxyEvent, .asyncLoop, 10_000).map { "; N=10,000: \(significant($0.min))×" } ?? ""
        checks.append(
            TargetCheck(
                name: "async fan-out vs hand-written async loop, N=1,000",
                requirement: "≤ 1.25× (min)",
                measured: "\(significant(ratio.min))× (median \(significant(ratio.median))×)\(large)",
                met: ratio.min <= 1.25
            )
        )
    } else {
        checks.append(notMeasured("async fan-out vs hand-written async loop, N=1,000", "≤ 1.25× (min)"))
    }

    // 3. NotificationCenter, at every N, for both forms.
    func speedups(over proxy: System) -> [(Int, Double)] {
        sizes.compactMap { n in table.ratio(.notificationCenter, proxy, n).map { (n, $0.min) } }
    }
    let syncSpeedups = speedups(over: .proxySyncEvent)
    let asyncSpeedups = speedups(over: .proxyEvent)
    func listed(_ ratios: [(Int, Double)]) -> String {
        ratios.map { "N=\(grouped($0.0)) \(significant($0.1))×" }.joined(separator: ", ")
    }
    let syncName = "sync fan-out vs NotificationCenter.post, every N"
    let asyncName = "async fan-out vs NotificationCenter.post, every N"
    if syncSpeedups.isEmpty {
        checks.append(notMeasured(syncName, "≥ 20× faster (min)"))
    } else {
        checks.append(
            TargetCheck(
                name: syncName,
                requirement: "≥ 20× faster (min)",
                measured: listed(syncSpeedups),
                met: syncSpeedups.allSatisfy { $0.1 >= 20 }
            )
        )
    }
    if asyncSpeedups.isEmpty {
        checks.append(notMeasured(asyncName, "≥ 20× faster (min)"))
    } else {
        let loop = sizes.compactMap { n in table.ratio(.notificationCenter, .asyncLoop, n).map { (n, $0.min) } }
        checks.append(
            TargetCheck(
                name: asyncName,
                requirement: "≥ 20× faster (min)",
                measured: listed(asyncSpeedups)
                    + (loop.isEmpty
                        ? "" : "; bounded by the awaited call itself: the hand-written async loop is \(listed(loop))"),
                met: asyncSpeedups.allSatisfy { $0.1 >= 20 }
            )
        )
    }

    // 4. Whole lifecycle against ServiceGroup at N=10,000.
    if let ratio = table.ratio(.serviceGroup, .hostLifecycle, 10_000) {
        let lean = table.ratio(.serviceGroup, .hostLifecycleLean, 10_000).map { significant($0.min) } ?? "–"
        checks.append(
            TargetCheck(
                name: "whole lifecycle vs ServiceGroup, N=10,000",
                requirement: "≥ 20× faster (min)",
                measured: "default configuration \(significant(ratio.min))× (median \(significant(ratio.median))×); "
                    + "without time limits or journal \(lean)×",
                met: ratio.min >= 20
            )
        )
    } else {
        checks.append(notMeasured("whole lifecycle vs ServiceGroup, N=10,000", "≥ 20× faster (min)"))
    }

    // 4b. Work: N works started, ready and stopped gracefully, against ServiceGroup at N=10,000 (each stop
    //     order), against the same run written by hand (a task group sharded as the host's; the flat group
    //     listed beside it), and the growth from 1,000 to 10,000 works.
    checks += evaluateWorkTargets(table)

    // 5. A custom event per handler against the hand-written awaited loop, at every N, for both handler
    //    forms; judged on the async form, which the loop it is compared with awaits too.
    let customName = "custom event per handler vs hand-written awaited loop, every N"
    func customRatios(_ system: System) -> [(Int, Double)] {
        sizes.compactMap { n in table.ratio(system, .asyncBoolLoop, n).map { (n, $0.min) } }
    }
    let asyncCustom = customRatios(.proxyCustomBoolAsync)
    if asyncCustom.isEmpty {
        checks.append(notMeasured(customName, "≤ 2× (min)"))
    } else {
        let syncCustom = customRatios(.proxyCustomBool)
        checks.append(
            TargetCheck(
                name: customName,
                requirement: "≤ 2× (min)",
                measured: "async handlers: \(listed(asyncCustom))"
                    + (syncCustom.isEmpty ? "" : "; sync handlers: \(listed(syncCustom))"),
                met: asyncCustom.allSatisfy { $0.1 <= 2 }
            )
        )
    }

    // 6. Growth from 1,000 to 10,000 modules, for every row of the library.
    let growth = System.all.filter(\.isLibrary).compactMap { system -> (System, Double)? in
        guard let small = table.find(system, 1_000), let large = table.find(system, 10_000) else { return nil }
        return (system, large.minNanoseconds / small.minNanoseconds)
    }
    checks.append(
        TargetCheck(
            name: "growth N=1,000 → 10,000",
            requirement: "time ratio ≤ 12× (min)",
            measured: growth.isEmpty
                ? "not measured"
                : growth.map { "\($0.0.id) \(significant($0.1))×" }.joined(separator: ", "),
            met: growth.isEmpty ? nil : growth.allSatisfy { $0.1 <= 12 }
        )
    )

    // 7. Building the proxy for 10,000 modules.
    if let build = table.find(.buildNumbered, 10_000) {
        var measured = "generic, all hooks: \(significant(build.minNanoseconds / 1e6)) ms"
        if let lean = table.find(.buildLean, 10_000), let names = table.find(.namesLean, 10_000) {
            measured += "; generic, one hook: \(significant(lean.minNanoseconds / 1e6)) ms, of which naming "
            measured += "\(significant(names.minNanoseconds / 1e6)) ms"
        }
        if let generated = table.find(.buildGenerated, 10_000), let names = table.find(.namesGenerated, 10_000) {
            measured += "; generated, one hook: \(significant(generated.minNanoseconds / 1e6)) ms, of which naming "
            measured += "\(significant(names.minNanoseconds / 1e6)) ms"
        }
        // What a discovered program builds: the generated types with their capability table. Judged on it
        // when measured; the other rows are manifests written by hand, which the runtime answers.
        let declared = table.find(.buildGeneratedDeclared, 10_000)
        if let declared {
            measured =
                "generated, capability table (as discovered): \(significant(declared.minNanoseconds / 1e6)) ms; "
                + measured
        }
        checks.append(
            TargetCheck(
                name: "build the proxy, N=10,000, ~1.9 dependencies each",
                requirement: "≤ 10 ms (min)",
                measured: measured,
                met: (declared ?? build).minNanoseconds <= 10e6
            )
        )
    } else {
        checks.append(notMeasured("build the proxy, N=10,000, ~1.9 dependencies each", "≤ 10 ms (min)"))
    }

    // 8. Services: resolving a created singleton against the hand-written locked dictionary, and the
    //    registry's share of building a host of 1,000 modules with ten services each.
    let resolveName = "resolving a singleton service vs a Mutex-protected dictionary, every N"
    let resolveRatios = sizes.compactMap { n in table.ratio(.servicesResolve, .lockedDictionary, n).map { (n, $0.min) }
    }
    if resolveRatios.isEmpty {
        checks.append(notMeasured(resolveName, "≤ 2× (min)"))
    } else {
        let limit = sizes.compactMap { n in table.ratio(.servicesResolve, .storedService, n).map { (n, $0.min) } }
        checks.append(
            TargetCheck(
                name: resolveName,
                requirement: "≤ 2× (min)",
                measured: listed(resolveRatios)
                    + (limit.isEmpty ? "" : "; against the stored property: \(listed(limit))"),
                met: resolveRatios.allSatisfy { $0.1 <= 2 }
            )
        )
    }
    // The registry's share is judged over the generated non-generic providers when the build has them
    // (what an application pays), else over the generic ones, whose type names cost extra to build.
    let registryName = "registry build, 1,000 modules × 10 services (with services − without)"
    func registryCost(_ with: System, _ without: System, _ n: Int) -> (cost: Double, with: Double, without: Double)? {
        guard let withRow = table.find(with, n), let withoutRow = table.find(without, n) else { return nil }
        let cost = (withRow.minNanoseconds - withoutRow.minNanoseconds) / 1e6
        return (cost, withRow.minNanoseconds / 1e6, withoutRow.minNanoseconds / 1e6)
    }
    func registryGrowth(_ label: String, _ with: System, _ without: System, from small: Int, to large: Int) -> String {
        guard let smaller = registryCost(with, without, small), let larger = registryCost(with, without, large) else {
            return ""
        }
        return "; \(label) growth \(small)→\(large) modules: \(significant(larger.cost / smaller.cost))×"
    }
    let generated = registryCost(.buildServicesGenerated, .buildNoServicesGenerated, 1_000)
    let generic = registryCost(.buildServices, .buildNoServices, 1_000)
    if let judged = generated ?? generic {
        var measured =
            "\(significant(judged.cost)) ms (\(significant(judged.with)) − \(significant(judged.without)) ms)"
        if generated != nil {
            measured =
                "generated: " + measured
                + registryGrowth("generated", .buildServicesGenerated, .buildNoServicesGenerated, from: 100, to: 1_000)
            if let generic { measured += "; generic: \(significant(generic.cost)) ms" }
        } else {
            measured = "generic: " + measured
        }
        measured += registryGrowth("generic", .buildServices, .buildNoServices, from: 1_000, to: 10_000)
        checks.append(
            TargetCheck(
                name: registryName,
                requirement: "≤ 5 ms (min), growth linear",
                measured: measured,
                met: judged.cost <= 5
            )
        )
    } else {
        checks.append(notMeasured(registryName, "≤ 5 ms (min), growth linear"))
    }

    // 9. Allocations per event in steady state: the synchronous dispatch, and beside it the asynchronous
    //    one and custom events.
    func allocations(_ systems: [System]) -> [(System, Int, Double)] {
        systems.flatMap { system in
            sizes.compactMap { n in table.find(system, n)?.allocationsPerRepetition.map { (system, n, $0) } }
        }
    }
    let sync = allocations([
        .proxySyncEvent, .proxySyncDidFinishLaunching, .proxySyncOpenURL, .proxySyncDiscovered,
        .proxySyncDiscoveredDidFinishLaunching, .proxySyncDiscoveredOpenURL, .proxySyncDiscoveredTwin,
        .proxySyncDiscoveredTwinDidFinishLaunching, .proxySyncDiscoveredTwinOpenURL,
    ])
    let async = allocations([.proxyEvent, .proxyEventGenerated, .proxyDidFinishLaunching, .proxyOpenURL])
    let custom = allocations([.proxyCustomBool, .proxyCustomBoolAsync]).map(\.2).max()
    let worst = sync.max { $0.2 < $1.2 }
    let worstAsync = async.map(\.2).max()
    checks.append(
        TargetCheck(
            name: "heap allocations per event, steady-state dispatch",
            requirement: "0 for sync dispatch",
            measured: (worst.map {
                $0.2 == 0
                    ? "sync: 0 at every N"
                    : "sync: up to \(significant($0.2)) (\($0.0.id), N=\(grouped($0.1)))"
            }
                ?? (table.find(.proxySyncEvent, sizes.first ?? 0) == nil
                    ? "sync: not measured in this run" : "not counted on this platform"))
                + (worstAsync.map { "; async built-in events: up to \(significant($0)) per event" } ?? "")
                + (custom.map { "; custom events: \(significant($0)) per event" } ?? ""),
            met: worst.map { $0.2 == 0 }
        )
    )

    // 10. Messages: a synchronous send to one receiver against a call through an existential, at every N
    //     (the host has N receivers); the `async` send beside it.
    let sendName = "sync send to one receiver vs a call through an existential, every N"
    let sendRatios = sizes.compactMap { n in
        table.ratio(.messagesSend, .messagesExistentialCall, n).map { (n, $0.min) }
    }
    if sendRatios.isEmpty {
        checks.append(notMeasured(sendName, "≤ 2× (min)"))
    } else {
        let asyncSend = sizes.compactMap { n in
            table.ratio(.messagesSendAsync, .messagesExistentialCall, n).map { (n, $0.min) }
        }
        checks.append(
            TargetCheck(
                name: sendName,
                requirement: "≤ 2× (min)",
                measured: listed(sendRatios) + (asyncSend.isEmpty ? "" : "; the async send: \(listed(asyncSend))"),
                met: sendRatios.allSatisfy { $0.1 <= 2 }
            )
        )
    }

    // 11. A broadcast to N receivers against NotificationCenter and the hand-written existential loop,
    //     judged at N=1,000; every N is listed.
    /// A ratio judged at N=1,000, with every N listed.
    func judgedAtThousand(
        _ name: String,
        _ numerator: System,
        over denominator: System,
        requirement: String,
        met: (Double) -> Bool
    ) -> TargetCheck {
        guard let ratio = table.ratio(numerator, denominator, 1_000) else { return notMeasured(name, requirement) }
        let every = sizes.compactMap { n in table.ratio(numerator, denominator, n).map { (n, $0.min) } }
        return TargetCheck(
            name: name,
            requirement: requirement,
            measured: "\(significant(ratio.min))× (median \(significant(ratio.median))×); every N: \(listed(every))",
            met: met(ratio.min)
        )
    }
    checks.append(
        judgedAtThousand(
            "sync broadcast vs NotificationCenter.post, N=1,000",
            .messagesNotificationCenter,
            over: .messagesBroadcast,
            requirement: "≥ 20× faster (min)"
        ) { $0 >= 20 }
    )
    checks.append(
        judgedAtThousand(
            "sync broadcast vs hand-written existential loop, N=1,000",
            .messagesBroadcast,
            over: .messagesExistentialLoop,
            requirement: "≤ 3× (min)"
        ) { $0 <= 3 }
    )

    // 12. Allocations of a synchronous send to one receiver of a message without reply, per send (one
    //     repetition is N sends); the async send, per send, and the broadcast, per broadcast, beside it.
    func perSend(_ system: System) -> [(Int, Double)] {
        sizes.compactMap { n in table.find(system, n)?.allocationsPerRepetition.map { (n, $0 / Double(n)) } }
    }
    let sendAllocations = perSend(.messagesSend)
    var otherAllocations: [String] = []
    if let worst = perSend(.messagesSendAsync).map(\.1).max() {
        otherAllocations.append("async send: up to \(significant(worst)) per send")
    }
    if let worst = sizes.compactMap({ table.find(.messagesBroadcast, $0)?.allocationsPerRepetition }).max() {
        otherAllocations.append("broadcast: up to \(significant(worst)) per broadcast")
    }
    let sendAllocationName = "heap allocations, sync send to one receiver, no reply"
    if sendAllocations.isEmpty {
        checks.append(notMeasured(sendAllocationName, "0 per send"))
    } else {
        let perSend = Set(sendAllocations.map(\.1))
        let measured =
            perSend.count == 1
            ? "\(significant(sendAllocations[0].1)) per send at every N"
            : sendAllocations.map { "N=\(grouped($0.0)) \(significant($0.1))" }.joined(separator: ", ") + " per send"
        checks.append(
            TargetCheck(
                name: sendAllocationName,
                requirement: "0 per send",
                measured: measured + otherAllocations.map { "; \($0)" }.joined(),
                met: sendAllocations.allSatisfy { $0.1 == 0 }
            )
        )
    }

    // 13. Issue 35, messages: a send through a channel resolved once, and the checked send without one,
    //     against a call through an existential at every N (the host has N receivers); the channel sends
    //     allocate nothing.
    let channelName = "message channel send"
    let channelRequirement = "≤ 3× a call through an existential, 0 allocations, every N (min)"
    let channelRatios = sizes.compactMap { n in
        table.ratio(.messagesChannelSend, .messagesExistentialCall, n).map { (n, $0.min) }
    }
    if channelRatios.isEmpty {
        checks.append(notMeasured(channelName, channelRequirement))
    } else {
        let channelAllocations = perSend(.messagesChannelSend) + perSend(.messagesChannelSendAsync)
        let worstAllocations = channelAllocations.map(\.1).max()
        let asyncChannel = sizes.compactMap { n in
            table.ratio(.messagesChannelSendAsync, .messagesExistentialCall, n).map { (n, $0.min) }
        }
        checks.append(
            TargetCheck(
                name: channelName,
                requirement: channelRequirement,
                measured: listed(channelRatios)
                    + (asyncChannel.isEmpty ? "" : "; awaited `send(_:)`: \(listed(asyncChannel))")
                    + (worstAllocations.map { "; allocations: up to \(significant($0)) per send" }
                        ?? "; allocations not counted"),
                met: channelRatios.allSatisfy { $0.1 <= 3 } && worstAllocations == 0
            )
        )
    }
    let checkedName = "message send without a channel (checked)"
    if sendRatios.isEmpty {
        checks.append(notMeasured(checkedName, "≤ 10× a call through an existential, every N (min)"))
    } else {
        checks.append(
            TargetCheck(
                name: checkedName,
                requirement: "≤ 10× a call through an existential, every N (min)",
                measured: listed(sendRatios),
                met: sendRatios.allSatisfy { $0.1 <= 10 }
            )
        )
    }

    // 14. Issue 35, broadcast: per receiver ≤ 2× the hand-written existential loop and ≥ 10× faster than
    //     NotificationCenter, at every N from 10 to 10,000.
    let broadcastName = "broadcast"
    let broadcastRequirement = "≤ 2× the hand-written loop and ≥ 10× faster than NotificationCenter, every N (min)"
    let overLoop = sizes.compactMap { n in
        table.ratio(.messagesBroadcast, .messagesExistentialLoop, n).map { (n, $0.min) }
    }
    let center = sizes.compactMap { n in
        table.ratio(.messagesNotificationCenter, .messagesBroadcast, n).map { (n, $0.min) }
    }
    if overLoop.isEmpty || center.isEmpty {
        checks.append(notMeasured(broadcastName, broadcastRequirement))
    } else {
        checks.append(
            TargetCheck(
                name: broadcastName,
                requirement: broadcastRequirement,
                measured: "÷ loop: \(listed(overLoop)); NotificationCenter ÷ broadcast: \(listed(center))",
                met: overLoop.allSatisfy { $0.1 <= 2 } && center.allSatisfy { $0.1 >= 10 }
            )
        )
    }
    return checks
}

/// The work targets: ≥ 10× faster than `ServiceGroup` at N=10,000, ≤ 1.5× the hand-written task group
/// (judged at N=10,000 against the group sharded as the host's, every N listed, the flat group beside it), and
/// growth from 1,000 to 10,000 works ≤ 12×; each stop order on its own. Judged on the minima.
func evaluateWorkTargets(_ table: ResultTable) -> [TargetCheck] {
    var checks: [TargetCheck] = []
    func listed(_ ratios: [(Int, Double)]) -> String {
        ratios.map { "N=\(grouped($0.0)) \(significant($0.1))×" }.joined(separator: ", ")
    }
    let orders: [(name: String, host: System, lean: System, sharded: System, flat: System)] = [
        (".reverse", .workHostReverse, .workHostReverseLean, .workHandReverseSharded, .workHandReverseFlat),
        (
            ".dependentsFirst", .workHostDependentsFirst, .workHostDependentsFirstLean, .workHandTogetherSharded,
            .workHandTogetherFlat
        ),
    ]
    for order in orders {
        let versusName = "work vs ServiceGroup, N=10,000, \(order.name)"
        if let ratio = table.ratio(.workServiceGroup, order.host, 10_000) {
            let lean = table.ratio(.workServiceGroup, order.lean, 10_000).map {
                "; without time limits or journal \(significant($0.min))×"
            }
            checks.append(
                TargetCheck(
                    name: versusName,
                    requirement: "≥ 10× faster (min)",
                    measured: "\(significant(ratio.min))× (median \(significant(ratio.median))×)\(lean ?? "")",
                    met: ratio.min >= 10
                )
            )
        } else {
            checks.append(notMeasured(versusName, "≥ 10× faster (min)"))
        }

        let handName = "work vs hand-written task group, N=10,000, \(order.name)"
        if let ratio = table.ratio(order.host, order.sharded, 10_000) {
            let every = table.sizes.compactMap { n in table.ratio(order.host, order.sharded, n).map { (n, $0.min) } }
            let flat = table.sizes.compactMap { n in table.ratio(order.host, order.flat, n).map { (n, $0.min) } }
            checks.append(
                TargetCheck(
                    name: handName,
                    requirement: "≤ 1.5× the group sharded by 64 (min)",
                    measured: "\(significant(ratio.min))× (median \(significant(ratio.median))×); every N: "
                        + listed(every) + (flat.isEmpty ? "" : "; against one flat group: \(listed(flat))"),
                    met: ratio.min <= 1.5
                )
            )
        } else {
            checks.append(notMeasured(handName, "≤ 1.5× the group sharded by 64 (min)"))
        }

        let growthName = "work growth N=1,000 → 10,000, \(order.name)"
        if let small = table.find(order.host, 1_000), let large = table.find(order.host, 10_000) {
            let growth = large.minNanoseconds / small.minNanoseconds
            let others = [order.sharded, .workServiceGroup].compactMap { system -> String? in
                guard let small = table.find(system, 1_000), let large = table.find(system, 10_000) else {
                    return nil
                }
                return "\(system.id) \(significant(large.minNanoseconds / small.minNanoseconds))×"
            }
            checks.append(
                TargetCheck(
                    name: growthName,
                    requirement: "≤ 12× (min)",
                    measured: "\(significant(growth))× (median "
                        + "\(significant(large.medianNanoseconds / small.medianNanoseconds))×)"
                        + (others.isEmpty ? "" : "; \(others.joined(separator: ", "))"),
                    met: growth <= 12
                )
            )
        } else {
            checks.append(notMeasured(growthName, "≤ 12× (min)"))
        }
    }
    return checks
}

/// CI's smoke check: each measured system must stay within a multiple of the reference it is compared
/// with, measured in the same run. For dispatch, the proxy must never be more than 5× its limit: the
/// concrete loop for synchronous hooks, the hand-written awaited loop of the same shape for asynchronous
/// ones. For the build and the lifecycle, the limit is about 1.7× the ratio measured when the check was
/// set (quick mode, N = 1,000, three runs), so noise passes and a 2× regression fails: a build from
/// capability tables against the same types cast at run time (0.20–0.22×), and a lifecycle of the host,
/// lean and in the default configuration, against `ServiceGroup` (0.25–0.28× and 0.73–0.84×).
///
/// Judged on the minima at the largest N measured (1,000 in quick mode), where the cost per module is what
/// is measured; smaller N are printed too. Below ~100 modules a fixed cost per event dominates the sync
/// rows (about 200 ns: the awaited `deliver` call and the outcome), which Docs/Performance.md reports.
func smokeChecks(_ table: ResultTable) -> [TargetCheck] {
    smokePairs.compactMap { pair in smokeCheck(pair, table) }
}

/// The systems of the smoke checks that failed in `table`, to measure again.
func failingSmokeSystems(_ table: ResultTable) -> Set<String> {
    var systems: Set<String> = []
    for pair in smokePairs where smokeCheck(pair, table)?.met == false {
        systems.formUnion([pair.measured.id, pair.reference.id])
    }
    return systems
}

/// A system, the reference it is compared with, and the largest ratio of their minima allowed.
private struct SmokePair {
    let measured: System
    let reference: System
    let limit: Double
}

/// Each checked system, its reference and its limit.
private let smokePairs: [SmokePair] = [
    SmokePair(measured: .proxySyncEvent, reference: .concreteLoop, limit: 5),
    SmokePair(measured: .proxySyncDidFinishLaunching, reference: .concreteBoolLoop, limit: 5),
    SmokePair(measured: .proxySyncOpenURL, reference: .concreteBoolLoop, limit: 5),
    SmokePair(measured: .proxySyncDiscovered, reference: .concreteLoop, limit: 5),
    SmokePair(measured: .proxyEvent, reference: .asyncLoop, limit: 5),
    SmokePair(measured: .proxyDidFinishLaunching, reference: .asyncBoolLoop, limit: 5),
    SmokePair(measured: .proxyOpenURL, reference: .asyncBoolLoop, limit: 5),
    // Custom events with synchronous handlers measured 0.56-0.64× the awaited loop at N ≥ 100: a 2×
    // regression fails. Async handlers (3.1-3.4×) are left to the full run's target check.
    SmokePair(measured: .proxyCustomBool, reference: .asyncBoolLoop, limit: 1.2),
    SmokePair(measured: .proxyEventGenerated, reference: .asyncLoopGenerated, limit: 5),
    SmokePair(measured: .buildLeanDeclared, reference: .buildLean, limit: 0.35),
    SmokePair(measured: .hostLifecycleLean, reference: .serviceGroup, limit: 0.45),
    SmokePair(measured: .hostLifecycle, reference: .serviceGroup, limit: 1.3),
    // Resolution measured 1.3-1.4× the hand-written locked dictionary: a 2× regression fails.
    SmokePair(measured: .servicesResolve, reference: .lockedDictionary, limit: 2.4),
    // Messages (Docs/Performance.md, "Messages, 2026-11-28"). The checked sync send measured 34.7× a call
    // through an existential at N=1,000 on the AMD machine of 2026-11-25 and 41-45× on this Intel one: 60×
    // fails a 1.5× regression. A send through a channel measured 4.7-5.7×; 10× fails the checked send's
    // design (41-45×) and the channel's first, which retained its handler and context (14.9×). The broadcast
    // measured 1.7-2.3× the loop (a bound handler per receiver, no reference counting); 5× fails the design
    // it replaced, 10.3-13.6× here (its drift from 5.1-6.7× was the machine: the same commit measured 16.7
    // ns per receiver on AMD EPYC and 30.9 ns on this Xeon, where its retains and releases cost twice as much).
    SmokePair(measured: .messagesSend, reference: .messagesExistentialCall, limit: 60),
    SmokePair(measured: .messagesChannelSend, reference: .messagesExistentialCall, limit: 10),
    SmokePair(measured: .messagesBroadcast, reference: .messagesExistentialLoop, limit: 5),
    // Work, short of its targets (Docs/Performance.md, "Work"): at N=1,000 the host measured 9.5-11.8× the
    // hand-written group sharded as it is, stopping in reverse, and 10.5-14.9× with all stopping together (four
    // quick runs on a loaded machine). 2× the typical ratio (~11×), 1.5× the worst: a 2× regression fails.
    // Tighten them when the work path gets faster.
    SmokePair(measured: .workHostReverse, reference: .workHandReverseSharded, limit: 22),
    SmokePair(measured: .workHostDependentsFirst, reference: .workHandTogetherSharded, limit: 22),
]

/// The work rows quick mode measures: those of the smoke checks.
let workSmokeSystems: Set<System> = [
    .workHostReverse, .workHostDependentsFirst, .workHandReverseSharded, .workHandTogetherSharded,
]

private func smokeCheck(_ pair: SmokePair, _ table: ResultTable) -> TargetCheck? {
    let ratios = table.sizes.compactMap { n in table.ratio(pair.measured, pair.reference, n).map { (n, $0.min) } }
    guard let judged = ratios.max(by: { $0.0 < $1.0 }) else { return nil }
    return TargetCheck(
        name: "smoke: \(pair.measured.id) vs \(pair.reference.id)",
        requirement: "≤ \(significant(pair.limit))× at the largest N (min)",
        measured: ratios.map { "N=\(grouped($0.0)) \(significant($0.1))×" }.joined(separator: ", "),
        met: judged.1 <= pair.limit
    )
}

private func notMeasured(_ name: String, _ requirement: String) -> TargetCheck {
    TargetCheck(name: name, requirement: requirement, measured: "not measured in this run", met: nil)
}

// MARK: - Routing

/// The routing targets, judged on the minima: `RouteTrie` against Hummingbird's trie at every number of
/// routes, its growth from the fewest routes measured to the most, and the chain of ten interceptors without
/// a budget against the same calls by hand.
func evaluateRoutingTargets(_ table: ResultTable) -> [TargetCheck] {
    guard !table.results.isEmpty else { return [] }
    var checks: [TargetCheck] = []
    func listed(_ ratios: [(Int, Double)]) -> String {
        ratios.map { "N=\(grouped($0.0)) \(significant($0.1))×" }.joined(separator: ", ")
    }

    let versusName = "RouteTrie.match(path:) vs Hummingbird's RouterTrie.resolve, every N"
    let versus = table.sizes.compactMap { n in table.ratio(.routeTriePath, .hummingbirdTrie, n).map { (n, $0.min) } }
    if versus.isEmpty {
        checks.append(notMeasured(versusName, "≤ 1× (min)"))
    } else {
        checks.append(
            TargetCheck(
                name: versusName,
                requirement: "≤ 1× (min)",
                measured: listed(versus),
                met: versus.allSatisfy { $0.1 <= 1 }
            )
        )
    }

    let growthName = "route matching growth, N=100 → 10,000 routes"
    if let growth = routeGrowth(.routeTriePath, table) {
        let other = routeGrowth(.hummingbirdTrie, table).map { "; Hummingbird: \(significant($0.min))×" } ?? ""
        checks.append(
            TargetCheck(
                name: growthName,
                requirement: "sub-linear: ≤ 10× for 100× the routes (min)",
                measured: "\(significant(growth.min))× (median \(significant(growth.median))×)\(other)",
                met: growth.min <= 10
            )
        )
    } else {
        checks.append(notMeasured(growthName, "sub-linear: ≤ 10× for 100× the routes (min)"))
    }

    let chainName = "opening through 10 interceptors without budget vs by hand"
    if let ratio = table.ratio(.chainInline, .chainHand, chainInterceptors.count) {
        let budgeted = table.ratio(.chainBudget, .chainHand, chainInterceptors.count).map {
            "; with the default budget \(significant($0.min))× (median \(significant($0.median))×)"
        }
        checks.append(
            TargetCheck(
                name: chainName,
                requirement: "≤ 3× (min)",
                measured: "\(significant(ratio.min))× (median \(significant(ratio.median))×)\(budgeted ?? "")",
                met: ratio.min <= 3
            )
        )
    } else {
        checks.append(notMeasured(chainName, "≤ 3× (min)"))
    }

    // Issue 35: a miss among heavily overlapping routes costs about as much at 10,000 routes as at 100.
    let overlapName = "overlapping routes, miss growth"
    let overlapRequirement = "a miss at N=10,000 routes ≤ 2× at N=100 (min)"
    if let growth = routeGrowth(.routeOverlapMiss, table) {
        let hits = routeGrowth(.routeOverlapHit, table).map { "; hits of nine segments \(significant($0.min))×" }
        checks.append(
            TargetCheck(
                name: overlapName,
                requirement: overlapRequirement,
                measured: "\(significant(growth.min))× (median \(significant(growth.median))×)\(hits ?? "")",
                met: growth.min <= 2
            )
        )
    } else {
        checks.append(notMeasured(overlapName, overlapRequirement))
    }

    // Issue 35: the route chain in the configuration a user gets, the default interceptor budget.
    let budgetName = "route chain, default budget"
    let budgetRequirement =
        "10 interceptors: ≤ 3× ten direct async calls and ≤ 2 heap allocations per opening; without a budget ≤ 2× (min)"
    if let budgeted = table.ratio(.chainBudget, .chainHand, chainInterceptors.count),
        let inline = table.ratio(.chainInline, .chainHand, chainInterceptors.count)
    {
        let allocations = table.find(.chainBudget, chainInterceptors.count)?.allocationsPerRepetition
        checks.append(
            TargetCheck(
                name: budgetName,
                requirement: budgetRequirement,
                measured: "default budget \(significant(budgeted.min))× (median \(significant(budgeted.median))×), "
                    + "\(allocations.map { significant($0) } ?? "uncounted") allocations; without a budget "
                    + "\(significant(inline.min))× (median \(significant(inline.median))×)",
                met: budgeted.min <= 3 && (allocations ?? .infinity) <= 2 && inline.min <= 2
            )
        )
    } else {
        checks.append(notMeasured(budgetName, budgetRequirement))
    }
    return checks
}

/// `system`'s time at 10,000 routes over its time at 100, from the minima and the medians.
private func routeGrowth(_ system: System, _ table: ResultTable) -> (min: Double, median: Double)? {
    guard let small = table.find(system, 100), let large = table.find(system, 10_000) else { return nil }
    return (large.minNanoseconds / small.minNanoseconds, large.medianNanoseconds / small.medianNanoseconds)
}

/// The systems the routing smoke checks measure; quick mode measures only these.
let routingSmokeSystems: [System] = [.routeTriePath, .chainInline, .chainHand, .routeOverlapMiss, .chainBudget]

/// CI's routing smoke checks, on the minima, with generous limits for a shared two-core machine:
///
/// - `RouteTrie.match(path:)` at 10,000 routes against itself at 100: at most 5×. It measured 1.01–1.08×;
///   matching that grew with the routes (a linear scan of siblings, as Hummingbird's) is ~100× or more.
/// - opening a route through ten interceptors without a budget against the same calls by hand: at most 10×,
///   about 1.6× the 6.0–6.2× measured after the chain's fixes, so a 2× regression fails. The target is 3×
///   (`evaluateRoutingTargets`); tighten this limit when the chain gets there.
/// - a miss among overlapping routes (`route-overlap-miss`) at 10,000 routes against itself at 100: at most
///   5×. It measured 0.95–1.02× once a branch refuses a path of a length none of its patterns has; the search
///   that backtracked through every branch agreeing with the path so far measured 29–37×.
/// - heap allocations per opening through ten interceptors with the default budget: at most 22. The design
///   with a task and a watchdog task per opening allocated 25.3 (2026-11-25); one task per opening on the
///   host's one watchdog measures 16–19 (the count moves with whether the chain's task has finished when the
///   caller starts waiting). Allocations, not time: the count does not move with the machine's load.
func routingSmokeChecks(_ table: ResultTable) -> [TargetCheck] {
    var checks: [TargetCheck] = []
    if let growth = routeGrowth(.routeTriePath, table) {
        checks.append(
            TargetCheck(
                name: "smoke: \(System.routeTriePath.id) at N=10,000 vs at N=100 routes",
                requirement: "≤ \(significant(routeGrowthLimit))× (min)",
                measured: "\(significant(growth.min))×",
                met: growth.min <= routeGrowthLimit
            )
        )
    }
    if let ratio = table.ratio(.chainInline, .chainHand, chainInterceptors.count) {
        checks.append(
            TargetCheck(
                name: "smoke: \(System.chainInline.id) vs \(System.chainHand.id)",
                requirement: "≤ \(significant(chainLimit))× (min)",
                measured: "\(significant(ratio.min))×",
                met: ratio.min <= chainLimit
            )
        )
    }
    if let growth = routeGrowth(.routeOverlapMiss, table) {
        checks.append(
            TargetCheck(
                name: "smoke: \(System.routeOverlapMiss.id) at N=10,000 vs at N=100 routes",
                requirement: "≤ \(significant(overlapGrowthLimit))× (min)",
                measured: "\(significant(growth.min))×",
                met: growth.min <= overlapGrowthLimit
            )
        )
    }
    if let allocations = table.find(.chainBudget, chainInterceptors.count)?.allocationsPerRepetition {
        checks.append(
            TargetCheck(
                name: "smoke: \(System.chainBudget.id) heap allocations per opening",
                requirement: "≤ \(significant(budgetAllocationLimit))",
                measured: significant(allocations),
                met: allocations <= budgetAllocationLimit
            )
        )
    }
    return checks
}

private let routeGrowthLimit = 5.0
private let chainLimit = 10.0
private let overlapGrowthLimit = 5.0
private let budgetAllocationLimit = 22.0

/// The systems of the routing smoke checks that failed in `table`, to measure again.
func failingRoutingSmokeSystems(_ table: ResultTable) -> Set<String> {
    var systems: Set<String> = []
    if let growth = routeGrowth(.routeTriePath, table), growth.min > routeGrowthLimit {
        systems.insert(System.routeTriePath.id)
    }
    if let ratio = table.ratio(.chainInline, .chainHand, chainInterceptors.count), ratio.min > chainLimit {
        systems.formUnion([System.chainInline.id, System.chainHand.id])
    }
    if let growth = routeGrowth(.routeOverlapMiss, table), growth.min > overlapGrowthLimit {
        systems.insert(System.routeOverlapMiss.id)
    }
    if let allocations = table.find(.chainBudget, chainInterceptors.count)?.allocationsPerRepetition,
        allocations > budgetAllocationLimit
    {
        systems.insert(System.chainBudget.id)
    }
    return systems
}
