/// A feature module: a type that receives the application's lifecycle events.
///
/// A module declares its ``priority`` and an initializer that takes a ``LifecycleContext``, and adopts
/// the capability protocol of each event it handles — and nothing else:
///
/// ```swift
/// struct SessionCacheModule: LifecycleModule, DidFinishLaunching, DidReceiveMemoryWarning {
///     static let priority: ModulePriority = .normal
///     let cache = SessionCache()
///
///     init(context: LifecycleContext) {}
///
///     func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
///         try await cache.warmUp()
///         return true
///     }
///
///     func didReceiveMemoryWarning(_ context: LifecycleContext) { cache.removeAll() }
/// }
/// ```
///
/// The proxy creates each module once, in delivery order, before any event is delivered. An initializer
/// that throws is reported as a manifest error naming the module.
///
/// `@_alwaysEmitConformanceMetadata` keeps every conformance record in optimized builds, even for a type
/// nothing references, so the completeness check in `LifecycleTesting` can find it at run time.
@_alwaysEmitConformanceMetadata
public protocol LifecycleModule: Sendable {
    /// The module's place in the delivery order.
    ///
    /// There is deliberately no default: declare it with its type, `static let priority: ModulePriority =
    /// .normal`. (With a default, `static let priority = 10_000` would declare an unrelated `Int` and the
    /// module would silently run at the default.)
    static var priority: ModulePriority { get }

    /// Creates the module. Read launch options and keep the context here; deliver no work yet.
    init(context: LifecycleContext) throws
}

extension LifecycleModule {
    /// The module's name in plans, delivery records and error messages: its module-qualified type name.
    public static var moduleName: String { String(reflecting: Self.self) }
}

/// A module that must start after other modules, and stop before them.
///
/// ```swift
/// struct CacheWarmupModule: LifecycleModule, DependentModule, DidFinishLaunching {
///     static let priority: ModulePriority = .normal
///     static let dependencies: [any LifecycleModule.Type] = [DatabasePoolModule.self]
///     …
/// }
/// ```
///
/// The order rule: a module never receives a forward event before the modules it depends on, nor a
/// reverse event after them. Among modules whose dependencies have all been placed, the highest priority
/// goes first, then manifest order. So a dependency is pulled ahead of a higher-priority dependent, and
/// priority orders everything dependencies leave free.
///
/// Dependencies are metatypes, so they work across targets and packages (the dependency must be visible:
/// `public` in another module). Naming a type that is not a module is a compile error. A dependency
/// missing from the manifest, a module depending on itself, and a cycle are `ManifestError`s when the
/// proxy is built (the cycle's message gives its full path); nothing is delivered.
///
/// `@_alwaysEmitConformanceMetadata` keeps conformance records in optimized builds, for the completeness
/// check, as on ``LifecycleModule``.
@_alwaysEmitConformanceMetadata
public protocol DependentModule: LifecycleModule {
    /// The modules this one depends on. No default: a mistyped declaration must not be silently ignored.
    static var dependencies: [any LifecycleModule.Type] { get }
}
