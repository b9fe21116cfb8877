/// A service could not be resolved. Its message names the service, the module that provides it when
/// there is one, and the fix.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Sendable {
            case noRegistry, notLaunched, terminated, notProvided, factoryFailed
            case noScope, scopeEnded, captiveDependency
        }
        let base: Base

        /// The host was not built from a manifest with services (`ModuleManifest.withServices()`).
        public static let noRegistry = Code(base: .noRegistry)
        /// Resolved before the launch's setup stage, for example in a module's initializer.
        public static let notLaunched = Code(base: .notLaunched)
        /// Resolved after every module received `willTerminate`: the singletons are shut down.
        public static let terminated = Code(base: .terminated)
        /// No module provides the service.
        public static let notProvided = Code(base: .notProvided)
        /// The service's factory threw; ``ServiceError/underlyingError`` holds what.
        public static let factoryFailed = Code(base: .factoryFailed)
        /// A scoped service was resolved outside any scope: not from `scope.services`, and not inside
        /// `withScope` (or `Scope.withCurrent`).
        public static let noScope = Code(base: .noScope)
        /// A scoped service was resolved in a scope that has ended, or has begun to end: its scoped
        /// instances are shut down, or being shut down.
        public static let scopeEnded = Code(base: .scopeEnded)
        /// A singleton's factory (directly, or through a transient's) resolved a scoped service: the
        /// singleton would keep one scope's instance after that scope ended.
        public static let captiveDependency = Code(base: .captiveDependency)

        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The service that was asked for.
    public let service: ServiceKey
    /// The module-qualified name of the module that provides it, if one does.
    public let provider: String?
    /// For ``Code/factoryFailed``: what the factory threw.
    public let underlyingError: (any Error)?
    /// What went wrong and how to fix it.
    public let description: String

    init(
        _ code: Code,
        service: ServiceKey,
        provider: String? = nil,
        underlyingError: (any Error)? = nil,
        description: String
    ) {
        self.code = code
        self.service = service
        self.provider = provider
        self.underlyingError = underlyingError
        self.description = description
    }
}
