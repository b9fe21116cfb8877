import LifecycleCore
import LifecycleServices
import LifecycleVapor
import Vapor

/// The users: provides the ``UserDirectory`` service, opens it in setup, serves `GET /users` and
/// `GET /users/:id`, and closes the directory in `willTerminate`.
public struct UsersModule: LifecycleModule, ServiceProvidingModule, SetupStage, WillTerminate {
    public static let priority: ModulePriority = .high
    let transcript: Transcript

    public init(context: LifecycleContext) throws {
        transcript = try context.transcript(for: Self.self)
    }

    public static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton(UserDirectory.self) { _ in UserDirectory() }
    }

    // README: vapor-module-routes
    public func setUp(_ context: LifecycleContext) async throws {
        let directory = try context.services.require(UserDirectory.self)
        await directory.open(["ada", "grace", "linus"])
        let vapor = try context.vapor(for: Self.self)  // the Application, and this module's gated routes
        vapor.routes.get("users") { req in
            try await req.modules.services.require(UserDirectory.self).names()
        }
        vapor.routes.get("users", ":id") { req in
            let id = try req.parameters.require("id", as: Int.self)
            guard let name = try await req.modules.services.require(UserDirectory.self).name(id) else {
                throw Abort(.notFound, reason: "no user \(id)")
            }
            return name
        }
        transcript.write("users: routes registered")
    }
    // README: end

    public func willTerminate(_ context: LifecycleContext) async throws {
        let count = try await context.services.require(UserDirectory.self).close()
        transcript.write("users: closed with \(count) users")
    }
}

/// The users, by id from 1.
public actor UserDirectory {
    private var users: [String] = []

    /// An empty directory.
    public init() {}

    func open(_ names: [String]) { users = names }

    /// Every user's name.
    public func names() -> [String] { users }

    /// User `id`'s name, or `nil`.
    public func name(_ id: Int) -> String? { users.indices.contains(id - 1) ? users[id - 1] : nil }

    /// Closes the directory; returns how many users it held.
    func close() -> Int {
        defer { users = [] }
        return users.count
    }
}
