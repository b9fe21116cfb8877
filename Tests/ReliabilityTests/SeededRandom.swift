/// SplitMix64: turns any 64-bit seed, even 0 or 1, into well-mixed words. Used to seed ``ModelRandom`` and
/// to derive one seed per sequence from a base seed.
struct ModelSplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// xoshiro256**, seeded through SplitMix64: a small, fast generator whose output depends only on the seed.
///
/// The bounded helpers below are written out instead of using `Int.random(in:using:)` and `shuffled(using:)`,
/// so a seed printed by a failing run reproduces the same sequence on any toolchain.
struct ModelRandom: RandomNumberGenerator {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    init(seed: UInt64) {
        var mixer = ModelSplitMix(state: seed)
        s0 = mixer.next()
        s1 = mixer.next()
        s2 = mixer.next()
        s3 = mixer.next()
    }

    /// The seed of sequence `index` under `base`: distinct, well spread, and stable.
    static func sequenceSeed(base: UInt64, index: Int) -> UInt64 {
        var mixer = ModelSplitMix(state: base ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    mutating func next() -> UInt64 {
        let result = rotate(s1 &* 5, 7) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = rotate(s3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 { (value << count) | (value >> (64 - count)) }

    /// A number in `0..<bound` (`bound` > 0), by multiply-and-shift; the bias is below 2⁻⁵⁰ for our bounds.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A number in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// `true` with probability `probability` (in 0...1), to 1/2⁵³.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1.0p-53 < probability
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    /// The elements in a random order (Fisher–Yates).
    mutating func shuffle<Element>(_ elements: [Element]) -> [Element] {
        var result = elements
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, below(index + 1))
            index -= 1
        }
        return result
    }
}
