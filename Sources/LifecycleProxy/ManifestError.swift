/// An error found while building a ``DelegateProxy`` from a manifest, or while adding a module to a running
/// host or removing one from it. Nothing has been delivered.
///
/// The ``description`` names the module types involved and says how to fix the manifest.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``ManifestError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case emptyManifest
            case duplicateModule
            case priorityOutOfRange
            case moduleInitializationFailed
            case duplicateCustomEventHandler
            case dependencyCycle
            case missingDependency
            case selfDependency
            case moduleDisabled
            case notAParticipant
            case requiredByOthers
            case capabilityMismatch
            case duplicateServiceProvider
            case missingServiceProvider
            case serviceProviderCycle
            case preparationFailed
            case duplicateMessageHandler
            case invalidRoute
            case duplicateRoute
            case invalidModuleSwitches
            case invalidWork
        }

        private let base: Base

        /// The manifest lists no module. This almost always means discovery did not run.
        public static let emptyManifest = Code(base: .emptyManifest)
        /// A module type is listed more than once.
        public static let duplicateModule = Code(base: .duplicateModule)
        /// A module's priority lies outside `ModulePriority.validRange`.
        public static let priorityOutOfRange = Code(base: .priorityOutOfRange)
        /// A module's `init(context:)` threw.
        public static let moduleInitializationFailed = Code(base: .moduleInitializationFailed)
        /// A participant registered two handlers for the same custom event.
        public static let duplicateCustomEventHandler = Code(base: .duplicateCustomEventHandler)
        /// Modules depend on each other in a cycle; ``ManifestError/modules`` is the cycle's path.
        public static let dependencyCycle = Code(base: .dependencyCycle)
        /// A module depends on a module that is not in the manifest.
        public static let missingDependency = Code(base: .missingDependency)
        /// A module lists itself among its dependencies.
        public static let selfDependency = Code(base: .selfDependency)
        /// A module registered at run time is disabled in this environment (`EnvironmentGatedModule`).
        public static let moduleDisabled = Code(base: .moduleDisabled)
        /// A module removed at run time is not one of the host's participants.
        public static let notAParticipant = Code(base: .notAParticipant)
        /// A module removed at run time is a dependency of modules that stay.
        public static let requiredByOthers = Code(base: .requiredByOthers)
        /// A generated manifest declares capabilities for a module that differ from its conformances: the
        /// discovery plugin did not see a conformance (checked in debug builds).
        public static let capabilityMismatch = Code(base: .capabilityMismatch)
        /// Two modules provide one service and no override says which one serves (LifecycleServices).
        public static let duplicateServiceProvider = Code(base: .duplicateServiceProvider)
        /// A module requires a service that no enabled module provides (LifecycleServices).
        public static let missingServiceProvider = Code(base: .missingServiceProvider)
        /// Providers require each other's services in a cycle: none could be created first (LifecycleServices).
        public static let serviceProviderCycle = Code(base: .serviceProviderCycle)
        /// A module registered two handlers for one message type (LifecycleMessaging).
        public static let duplicateMessageHandler = Code(base: .duplicateMessageHandler)
        /// A working module declares two works with one name, or a work policy that cannot work (a negative
        /// duration, a jitter outside 0…1): LifecycleWork, Docs/Work.md.
        public static let invalidWork = Code(base: .invalidWork)
        /// A route served by a module cannot be reached as declared: its pattern cannot match anything, or
        /// its command is malformed (LifecycleRouting).
        public static let invalidRoute = Code(base: .invalidRoute)
        /// Two routes match the same inputs (one pattern shape, or one command name), one route is served
        /// twice, or two commands are the default (LifecycleRouting).
        public static let duplicateRoute = Code(base: .duplicateRoute)
        /// The module switches (`ModuleSwitches`: `--disable-module`, `LIFECYCLE_DISABLE_MODULES`, the modules
        /// file) cannot be read, or name a module the manifest does not have; `underlyingErrors` holds the
        /// `ModuleSwitchesError`.
        public static let invalidModuleSwitches = Code(base: .invalidModuleSwitches)
        /// Something the manifest brings to every host failed to prepare it; `underlyingErrors` says what.
        public static let preparationFailed = Code(base: .preparationFailed)

        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The module-qualified names of the types involved.
    public let modules: [String]
    /// For ``Code/moduleInitializationFailed``: what each initializer threw, in the order of ``modules``.
    public let underlyingErrors: [any Error]
    /// What went wrong and how to fix it.
    public let description: String

    package init(code: Code, modules: [String], underlyingErrors: [any Error] = [], description: String) {
        self.code = code
        self.modules = modules
        self.underlyingErrors = underlyingErrors
        self.description = description
    }
}
