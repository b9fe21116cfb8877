public import LifecycleCore

/// The shape every synthetic manifest has, whichever family of types builds it: module `n`'s priority,
/// its dependencies, and its vote in Bool events.
///
/// Module `n` ≥ 2 depends on modules `n / 2` and `n / 3` (one module when they coincide): 1.9
/// dependencies on average, always on lower numbers, so the first N modules form a closed manifest for
/// every N, and the graph is about log2(N) layers deep. Priorities are scattered over the valid range, so
/// the proxy's topological sort does real heap work. Odd modules vote `true`.
///
/// `synthetic-module-generator` writes the same rule into the generated types; the benchmark checks that
/// they agree before it measures anything.
public enum SyntheticGraph {
    /// The largest manifest a benchmark builds.
    public static let maximumCount = 10_000

    /// The modules module `n` depends on.
    public static func dependencies(of n: Int) -> [Int] {
        guard n >= 2 else { return [] }
        return n / 2 == n / 3 ? [n / 2] : [n / 2, n / 3]
    }

    /// Module `n`'s priority.
    public static func priority(of n: Int) -> ModulePriority {
        ModulePriority(rawValue: (n * 7_919) % 100_000)
    }

    /// Module `n`'s answer to Bool events.
    public static func vote(of n: Int) -> Bool { n % 2 == 1 }
}
