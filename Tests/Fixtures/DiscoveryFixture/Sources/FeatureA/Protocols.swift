public import LifecycleCore

/// A refined module protocol: conforming to it makes a type a module, in this module or another.
public protocol FeatureModule: LifecycleModule {}

/// A base class other modules subclass; the subclass is a module too (and so is the base class: the
/// scanner registers every nameable conformer). Immutable, hence `@unchecked Sendable`.
open class BaseService: LifecycleModule, @unchecked Sendable {
    open class var priority: ModulePriority { .low }
    public required init(context: LifecycleContext) {}
}

typealias ModuleAlias = LifecycleModule & Sendable
