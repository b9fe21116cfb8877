import LifecycleCore
import Testing

@Suite("ModulePriority")
struct ModulePriorityTests {
    @Test("Named levels are ordered and lie in the valid range")
    func namedLevels() {
        let levels: [ModulePriority] = [.minimum, .low, .normal, .high, .maximum]
        #expect(levels == levels.sorted())
        #expect(levels.map(\.rawValue) == [0, 1_000, 5_000, 10_000, 100_000])
        #expect(levels.allSatisfy { $0.isValid })
    }

    @Test("Offsets move between levels and saturate instead of overflowing")
    func arithmetic() {
        #expect((ModulePriority.normal + 100).rawValue == 5_100)
        #expect((ModulePriority.normal - 100).rawValue == 4_900)
        #expect((ModulePriority(Int.max) + 1).rawValue == Int.max)
        #expect((ModulePriority(Int.min) - 1).rawValue == Int.min)
        #expect((ModulePriority.maximum + 1).isValid == false)
        #expect((ModulePriority.minimum - 1).isValid == false)
    }

    @Test("Literals and raw values are interchangeable")
    func literals() {
        let literal: ModulePriority = 7_500
        #expect(literal == ModulePriority(rawValue: 7_500))
        #expect(literal > .normal && literal < .high)
        #expect(literal.description == "7500")
        #expect(ModulePriority.high.description == "high (10000)")
    }
}
