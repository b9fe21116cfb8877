import LifecycleCore
import LifecycleTesting
import Testing

// MARK: - Fixtures

struct StructModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

enum EnumModule: LifecycleModule {
    case only
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { self = .only }
}

final class FinalClassModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// A non-final class can only be `Sendable` (without `@unchecked`) when a global actor isolates it.
@MainActor
class BaseClassModule: LifecycleModule {
    nonisolated static let priority: ModulePriority = .normal
    nonisolated required init(context: LifecycleContext) {}
}

/// Declares no conformance itself: it inherits `BaseClassModule`'s, and has no conformance record.
class SubclassModule: BaseClassModule {}

/// Two levels below the class that declares the conformance.
final class GrandchildModule: SubclassModule {}

actor ActorModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

enum Namespace {
    struct NestedModule: LifecycleModule {
        static let priority: ModulePriority = .normal
        init(context: LifecycleContext) {}
    }
}

struct ExtensionModule {}

extension ExtensionModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

protocol FeatureModule: LifecycleModule {}

struct RefinedModule: FeatureModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// Generic: has no metadata until specialized, so it is not a module type the oracle can report.
struct Generic<T: Sendable>: LifecycleModule {
    static var priority: ModulePriority { .normal }
    init(context: LifecycleContext) {}
}

/// A generic conformer's non-generic subclass does conform, through its generic superclass.
@MainActor
class GenericBaseModule<T: Sendable>: LifecycleModule {
    nonisolated static var priority: ModulePriority { .normal }
    nonisolated required init(context: LifecycleContext) {}
}

final class ConcreteSubclassModule: GenericBaseModule<Int> {}

/// Looks like a module, but does not conform.
struct NotAModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// A class that does not conform, below a class that does not either.
class PlainBase {}
final class PlainSubclass: PlainBase {}

// MARK: - Tests

@Suite struct RuntimeConformancesTests {
    /// The fixtures that conform, as `String(reflecting:)` spells them, sorted.
    static let expectedFixtures = [
        "LifecycleTestingTests.ActorModule",
        "LifecycleTestingTests.BaseClassModule",
        "LifecycleTestingTests.ConcreteSubclassModule",
        "LifecycleTestingTests.EnumModule",
        "LifecycleTestingTests.ExtensionModule",
        "LifecycleTestingTests.FinalClassModule",
        "LifecycleTestingTests.GrandchildModule",
        "LifecycleTestingTests.Namespace.NestedModule",
        "LifecycleTestingTests.RefinedModule",
        "LifecycleTestingTests.StructModule",
        "LifecycleTestingTests.SubclassModule",
    ]

    static func fixtureNames() -> [String] {
        runtimeModuleTypes().map { String(reflecting: $0) }.filter { $0.hasPrefix("LifecycleTestingTests.") }
    }

    @Test func findsExactlyTheConformingFixtures() {
        #expect(Self.fixtureNames() == Self.expectedFixtures)
    }

    @Test func findsSubclassesThatDeclareNoConformance() {
        let names = Self.fixtureNames()
        #expect(names.contains("LifecycleTestingTests.SubclassModule"))
        #expect(names.contains("LifecycleTestingTests.GrandchildModule"))
        #expect(names.contains("LifecycleTestingTests.ConcreteSubclassModule"))
    }

    @Test func leavesOutGenericAndNonConformingTypes() {
        let names = Self.fixtureNames()
        #expect(!names.contains { $0.hasPrefix("LifecycleTestingTests.Generic") })
        #expect(!names.contains("LifecycleTestingTests.NotAModule"))
        #expect(!names.contains("LifecycleTestingTests.PlainBase"))
        #expect(!names.contains("LifecycleTestingTests.PlainSubclass"))
    }

    @Test func returnsEachTypeOnceSortedByName() {
        let names = runtimeModuleTypes().map { String(reflecting: $0) }
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
    }

    @Test func returnsUsableModuleTypes() throws {
        let types = runtimeModuleTypes().filter { String(reflecting: $0).hasPrefix("LifecycleTestingTests.") }
        #expect(types.count == Self.expectedFixtures.count)
        for type in types {
            #expect(type.priority == .normal)
            let module = try type.init(context: LifecycleContext())
            #expect(String(reflecting: Swift.type(of: module)) == String(reflecting: type))
        }
    }

}
