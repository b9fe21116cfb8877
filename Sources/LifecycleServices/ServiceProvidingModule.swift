public import LifecycleCore

/// A module that provides services: implementations other modules resolve by their service type, without
/// importing the implementation.
///
/// ```swift
/// public protocol DatabaseClient: Sendable {
///     func query(_ sql: String) async throws -> [Row]
/// }
///
/// struct DatabasePoolModule: LifecycleModule, ServiceProvidingModule {
///     static let priority: ModulePriority = .high
///     init(context: LifecycleContext) {}
///
///     static func provideServices(_ services: inout ServiceProvisions) {
///         services.singleton((any DatabaseClient).self) { _ in
///             PooledClient()
///         } shutdown: { client in
///             await client.close()
///         }
///     }
/// }
/// ```
///
/// The provisions are static, read once per host before any module is created, so the host knows every
/// service and orders each module that requires one after its provider. The provider resolves its own
/// services through its context like anybody else.
public protocol ServiceProvidingModule: LifecycleModule {
    /// Lists the services this module provides, one provision each.
    static func provideServices(_ services: inout ServiceProvisions)
}
