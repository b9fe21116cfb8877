/// A feature module: a type that receives the application's lifecycle events.
///
/// A module declares its ``priority`` and an initializer that takes a ``LifecycleContext``, and adopts
/// the capability protocol of each event it handles — and nothing else:
///
/// ```swift
/// struct CacheModule: LifecycleModule, DidFinishLaunching, DidReceiveMemoryWarning {
///     static let priority: ModulePriority = .normal
///     let cache: Cache
///
///     init(context: LifecycleContext) throws {
///         cache = try Cache(capacity: context.launchOptions[CacheCapacity.self])
///     }
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
/// The proxy creates each module once, from a manifest, in manifest order, before any event is
/// delivered. An initializer that throws is reported as a manifest error naming the module.
public protocol LifecycleModule: Sendable {
    /// The module's place in the delivery order. Defaults to ``ModulePriority/normal``.
    static var priority: ModulePriority { get }

    /// Creates the module. Read launch options and keep the context here; deliver no work yet.
    init(context: LifecycleContext) throws
}

extension LifecycleModule {
    public static var priority: ModulePriority { .normal }

    /// The module's name in plans, delivery records and error messages: its module-qualified type name.
    public static var moduleName: String { String(reflecting: Self.self) }
}

/// The host program's own application delegate: the "real" delegate that the proxy stands in front of.
///
/// The delegate adopts the same capability protocols as modules. It receives forward events before
/// every module and reverse events after every module. Unlike a module, the program creates it and hands
/// it to the host.
public protocol ApplicationDelegate: Sendable {}
