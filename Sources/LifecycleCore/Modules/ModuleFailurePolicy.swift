/// What a failure of one module's launch hooks does to the launch.
public struct ModuleFailurePolicy: Hashable, Sendable, CustomStringConvertible {
    private enum Base: String, Hashable, Sendable {
        case isolate
        case abort
    }

    private let base: Base

    /// Report the failure and go on, even when the host's launch policy is `.abort`.
    public static let isolate = ModuleFailurePolicy(base: .isolate)
    /// Abort the launch, with a rollback, even when the host's launch policy is `.continue`.
    public static let abort = ModuleFailurePolicy(base: .abort)

    public var description: String { base.rawValue }
}

/// A module that decides what its own launch failures do, overriding
/// `ApplicationHost.Configuration.launchFailurePolicy` for it alone.
///
/// A failure is a launch hook (`willFinishLaunching`, the stages, `didFinishLaunching`) that throws or
/// runs past its budget. Outside launch, failures never stop other participants.
///
/// ```swift
/// struct DatabasePoolModule: LifecycleModule, FailurePolicyModule, WarmUpStage {
///     static let priority: ModulePriority = .high
///     static let failurePolicy: ModuleFailurePolicy = .abort  // no database, no service
///     …
/// }
/// ```
@_alwaysEmitConformanceMetadata
public protocol FailurePolicyModule: LifecycleModule {
    /// What a failure of this module's launch hooks does.
    static var failurePolicy: ModuleFailurePolicy { get }
}
