import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Checks that warm-up waits only for the nearest warm-up implementers yet starts every module exactly
/// when waiting for its whole transitive closure did.
@Suite("Warm-up graph", .timeLimit(.minutes(1)))
struct WarmUpGraphTests {
    /// Participants `0 ..< dependencies.count`, in delivery order; those in `implementers` warm up.
    struct Graph {
        let dependencies: [[Int]]
        let implementers: [Int]

        var participants: [Participant] {
            dependencies.indices.map { Participant(name: "M\($0)", priority: .normal, id: $0) }
        }
        var plan: [Participant] { implementers.map { Participant(name: "M\($0)", priority: .normal, id: $0) } }

        var built: WarmUpGraph {
            WarmUpGraph(plan: plan, participants: participants) { dependencies[$0.id][...] }
        }

        /// What warm-up used to wait for: every implementer in the transitive dependencies, by position.
        var transitiveWaitsOn: [Set<Int>] {
            let position = Dictionary(uniqueKeysWithValues: implementers.enumerated().map { ($0.element, $0.offset) })
            return implementers.map { implementer in
                var seen: Set<Int> = []
                var stack = dependencies[implementer]
                var found: Set<Int> = []
                while let next = stack.popLast() {
                    guard seen.insert(next).inserted else { continue }
                    if let target = position[next] { found.insert(target) }
                    stack += dependencies[next]
                }
                return found
            }
        }
    }

    /// Runs a warm-up stage on paper: finishes one running hook at a time, chosen by `pick`, and records
    /// which hooks each finish starts, in start order.
    static func starts(_ waitsOn: [Set<Int>], pick: (_ running: [Int]) -> Int) -> [[Int]] {
        var dependents: [[Int]] = Array(repeating: [], count: waitsOn.count)
        for (dependent, list) in waitsOn.enumerated() {
            for dependency in list { dependents[dependency].append(dependent) }
        }
        var waiting = waitsOn.map(\.count)
        var running = waitsOn.indices.filter { waiting[$0] == 0 }
        var log = [running]
        while !running.isEmpty {
            let finished = running.remove(at: pick(running))
            var started: [Int] = []
            for dependent in dependents[finished] {
                waiting[dependent] -= 1
                if waiting[dependent] == 0 { started.append(dependent) }
            }
            log.append(started)
            running += started
        }
        return log
    }

    /// Root warms up; two plain modules lead to Left and Right; Top reaches both through a plain join and
    /// reaches Left a second way, through another plain module.
    ///
    ///     0 Root(w) ← 1 plain ← 3 Left(w) ← 5 join ← 7 Top(w)
    ///            ↖ 2 plain ← 4 Right(w) ↙      6 plain ↙ (6 → 3)
    static let diamond = Graph(
        dependencies: [[], [0], [0], [1], [2], [3, 4], [3], [5, 6]],
        implementers: [0, 3, 4, 7]
    )

    @Test("An implementer waits only for the nearest implementers, each once, through modules without warm-up")
    func nearestImplementers() {
        let graph = Self.diamond.built
        #expect(graph.waitsOn.map { $0.sorted() } == [[], [0], [0], [1, 2]])
        #expect(graph.dependents == [[1, 2], [3], [3], []])
        #expect(graph.withoutWarmUp == [1, 2, 5, 6])
    }

    @Test("The diamond starts every module when waiting for the whole closure did, in every finishing order")
    func diamondStartsLikeTheClosure() {
        let diamond = Self.diamond
        let nearest = diamond.built.waitsOn.map(Set.init)
        let closure = diamond.transitiveWaitsOn
        #expect(nearest != closure, "the closure of Top includes Root; the nearest set must not")
        for choice in 0..<4 {
            let pick: ([Int]) -> Int = { running in choice % 2 == 0 ? 0 : running.count - 1 }
            let expected = Self.starts(closure, pick: pick)
            #expect(Self.starts(nearest, pick: pick) == expected)
            // Root first; Left and Right together in delivery order; Top only after both.
            #expect(expected.first == [0])
            #expect(expected.contains([1, 2]))
            #expect(expected.last == [] && expected.dropLast().last(where: { !$0.isEmpty }) == [3])
        }
    }

    @Test("Random graphs: the start log equals the transitive closure's for random finishing orders")
    func randomGraphs() {
        var random = SplitMix(state: 0x5EED)
        for _ in 0..<300 {
            let count = 1 + Int(random.next() % 40)
            let dependencies: [[Int]] = (0..<count).map { index in
                guard index > 0 else { return [] }
                return (0..<Int(random.next() % 4)).map { _ in Int(random.next() % UInt64(index)) }
            }
            let implementers = (0..<count).filter { _ in random.next() % 3 != 0 }
            let graph = Graph(dependencies: dependencies, implementers: implementers)
            let built = graph.built
            #expect(built.waitsOn.allSatisfy { Set($0).count == $0.count }, "a position is waited for once")
            let seed = random.next()
            var first = SplitMix(state: seed)
            var second = SplitMix(state: seed)
            let closureLog = Self.starts(graph.transitiveWaitsOn) { Int(first.next() % UInt64($0.count)) }
            let nearestLog = Self.starts(built.waitsOn.map(Set.init)) { Int(second.next() % UInt64($0.count)) }
            #expect(nearestLog == closureLog, "dependencies \(dependencies), implementers \(implementers)")
        }
    }

    @Test("On a host, a module behind modules without warm-up waits for the nearest warm-ups, not the others")
    func hostDiamond() async throws {
        let log = StageLog()
        var options = LaunchOptions()
        options[StageLogKey.self] = log
        let host = try ApplicationHost(
            manifest: ModuleManifest([
                DiamondTop.self, DiamondJoin.self, DiamondSide.self, DiamondLeft.self, DiamondRight.self,
                DiamondLeftPath.self, DiamondRightPath.self, DiamondRoot.self,
            ]),
            launchOptions: options,
            configuration: .init(clock: VirtualClock())  // budgets pass only when a test moves it
        )
        let launch = Task { try await host.launch() }
        await log.latch("DiamondRoot").waitUntilEntered()
        #expect(warmUpStarts(log) == ["DiamondRoot"])
        log.latch("DiamondRoot").open()
        await log.latch("DiamondLeft").waitUntilEntered()
        await log.latch("DiamondRight").waitUntilEntered()
        #expect(Set(warmUpStarts(log)) == ["DiamondRoot", "DiamondLeft", "DiamondRight"])
        log.latch("DiamondLeft").open()
        for _ in 0..<200 { await Task.yield() }
        #expect(!warmUpStarts(log).contains("DiamondTop"), "Top started before Right finished")
        log.latch("DiamondRight").open()
        await log.latch("DiamondTop").waitUntilEntered()
        let entries = log.entries
        let rightEnd = try #require(entries.firstIndex(of: "warmUp end DiamondRight"))
        let leftEnd = try #require(entries.firstIndex(of: "warmUp end DiamondLeft"))
        let topStart = try #require(entries.firstIndex(of: "warmUp start DiamondTop"))
        #expect(leftEnd < topStart && rightEnd < topStart)
        log.latch("DiamondTop").open()
        _ = try await launch.value
        #expect(host.state == .active)
    }

    @Test("Modules released together all start, while one of them holds; a chain runs in order")
    func releasedTogetherRunConcurrently() async throws {
        let log = StageLog()
        var options = LaunchOptions()
        options[StageLogKey.self] = log
        let host = try ApplicationHost(
            manifest: ModuleManifest([FanRoot.self, FanFirst.self, FanSecond.self, FanThird.self, FanAfterThird.self]),
            launchOptions: options,
            configuration: .init(clock: VirtualClock())  // budgets pass only when a test moves it
        )
        for name in ["FanRoot", "FanThird", "FanAfterThird"] { log.latch(name).open() }
        let launch = Task { try await host.launch() }
        // Root releases three at once; each must start although the others hold (or run a chain).
        await log.latch("FanFirst").waitUntilEntered()
        await log.latch("FanSecond").waitUntilEntered()
        await log.latch("FanAfterThird").waitUntilEntered()
        let entries = log.entries
        let rootEnd = try #require(entries.firstIndex(of: "warmUp end FanRoot"))
        let thirdEnd = try #require(entries.firstIndex(of: "warmUp end FanThird"))
        let afterStart = try #require(entries.firstIndex(of: "warmUp start FanAfterThird"))
        for name in ["FanFirst", "FanSecond", "FanThird"] {
            #expect(try #require(entries.firstIndex(of: "warmUp start \(name)")) > rootEnd)
        }
        #expect(thirdEnd < afterStart)
        log.latch("FanFirst").open()
        log.latch("FanSecond").open()
        _ = try await launch.value
        // The journal has every warm-up, each after the ones it waited for.
        let journaled = try #require(host.journal).entries.filter { $0.event == "warmUp" }.map {
            shortName($0.participant)
        }
        #expect(Set(journaled) == ["FanRoot", "FanFirst", "FanSecond", "FanThird", "FanAfterThird"])
        #expect(journaled.first == "FanRoot")
        #expect(
            try #require(journaled.firstIndex(of: "FanThird")) < #require(journaled.firstIndex(of: "FanAfterThird"))
        )
    }

    func warmUpStarts(_ log: StageLog) -> [String] {
        log.entries.filter { $0.hasPrefix("warmUp start") }.map { String($0.dropFirst("warmUp start ".count)) }
    }
}

/// SplitMix64, for reproducible random graphs.
struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A module without warm-up, recording nothing: a link in the dependency chain.
protocol PlainLink: LifecycleModule, DependentModule {
    init()
}

extension PlainLink {
    init(context: LifecycleContext) { self.init() }
}

struct DiamondRoot: StagedModule {
    static let priority: ModulePriority = .high
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct DiamondLeftPath: PlainLink {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [DiamondRoot.self]
}

struct DiamondRightPath: PlainLink {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [DiamondRoot.self]
}

struct DiamondLeft: StagedModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [DiamondLeftPath.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct DiamondRight: StagedModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [DiamondRightPath.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

/// Reaches Left a second way, so Top finds Left twice.
struct DiamondSide: PlainLink {
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [DiamondLeft.self]
}

struct DiamondJoin: PlainLink {
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [DiamondLeft.self, DiamondRight.self]
}

struct DiamondTop: StagedModule, DependentModule {
    static let priority: ModulePriority = .minimum
    static let dependencies: [any LifecycleModule.Type] = [DiamondJoin.self, DiamondSide.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct FanRoot: StagedModule {
    static let priority: ModulePriority = .maximum
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct FanFirst: StagedModule, DependentModule {
    static let priority: ModulePriority = .high
    static let dependencies: [any LifecycleModule.Type] = [FanRoot.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct FanSecond: StagedModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [FanRoot.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct FanThird: StagedModule, DependentModule {
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [FanRoot.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct FanAfterThird: StagedModule, DependentModule {
    static let priority: ModulePriority = .minimum
    static let dependencies: [any LifecycleModule.Type] = [FanThird.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}
