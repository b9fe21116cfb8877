/// SplitMix64: a small generator whose output depends only on its seed, on every platform and toolchain.
/// Random lifecycles draw their steps and faults from it, so a printed seed replays the same run.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= Self.gamma
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Moves on as if `count` numbers had been drawn.
    package mutating func skip(_ count: Int) {
        state &+= Self.gamma &* UInt64(truncatingIfNeeded: count)
    }

    /// A number in `0..<1`.
    package mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// A number in `0..<bound`, for a positive `bound`; written out rather than `Int.random(in:using:)`, whose
    /// algorithm the standard library may change.
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// The seed of run `index` of a series that starts from `base`: runs next to each other get unrelated seeds.
    package static func seed(ofRun index: Int, from base: UInt64) -> UInt64 {
        var mixer = SplitMix64(seed: base ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    /// FNV-1a of `text`'s UTF-8: a stable hash, unlike `Hasher`, which is seeded per process.
    package static func hash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
