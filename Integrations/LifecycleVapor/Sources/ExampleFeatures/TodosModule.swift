import LifecycleCore
import LifecycleScopes
import LifecycleServices
import LifecycleVapor
import Synchronization
import Vapor

/// The todos: provides the ``TodoStore`` (a singleton) and a ``TodoAudit`` per request (a scoped service),
/// serves `GET /todos`, `POST /todos` (a title as the body, for an existing user as `?user=<id>`) and
/// `GET /todos/slow?ms=<n>` (answers after `n` ms, for the drain tests), and closes the store in
/// `willTerminate`: after Vapor's server answered its last request.
public struct TodosModule: LifecycleModule, DependentModule, ServiceProvidingModule, SetupStage, WillTerminate {
    public static let priority: ModulePriority = .normal
    public static let dependencies: [any LifecycleModule.Type] = [UsersModule.self]
    let transcript: Transcript

    public init(context: LifecycleContext) throws {
        transcript = try context.transcript(for: Self.self)
    }

    public static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton(TodoStore.self) { _ in TodoStore() }
        // One per request: its shutdown runs when the request's scope ends, after the response was made.
        services.scoped(
            TodoAudit.self,
            { resolver in TodoAudit(transcript: resolver.launchOptions[TranscriptKey.self]) },
            shutdown: { audit in audit.report() }
        )
    }

    public func setUp(_ context: LifecycleContext) async throws {
        let routes = try context.vapor(for: Self.self).routes
        let transcript = self.transcript
        routes.get("todos") { req in
            try await req.modules.services.require(TodoStore.self).all()
        }
        routes.post("todos") { req in
            let services = try req.modules.services
            let user = try req.query.get(Int.self, at: "user")
            guard try await services.require(UserDirectory.self).name(user) != nil else {
                throw Abort(.badRequest, reason: "no user \(user)")
            }
            let title = req.body.string ?? ""
            let todo = try await services.require(TodoStore.self).add(title, for: user)
            try services.require(TodoAudit.self).record("added \(todo.id)")
            return todo
        }
        routes.get("todos", "slow") { req in
            let milliseconds = req.query[Int.self, at: "ms"] ?? 1_000
            transcript.write("todos: slow request started")
            try await Task.sleep(for: .milliseconds(milliseconds))
            transcript.write("todos: slow request answered")
            return "slow \(milliseconds) ms"
        }
    }

    public func willTerminate(_ context: LifecycleContext) async throws {
        let count = try await context.services.require(TodoStore.self).close()
        transcript.write("todos: closed with \(count) todos")
    }
}

/// One todo.
public struct Todo: Content, Equatable {
    /// Its id, from 1.
    public let id: Int
    /// The user it belongs to.
    public let user: Int
    /// What to do.
    public let title: String

    /// A todo.
    public init(id: Int, user: Int, title: String) {
        self.id = id
        self.user = user
        self.title = title
    }
}

/// The todos, in memory.
public actor TodoStore {
    private var todos: [Todo] = []
    private var isOpen = true

    /// An empty store.
    public init() {}

    /// Every todo.
    public func all() -> [Todo] { todos }

    /// Adds a todo.
    public func add(_ title: String, for user: Int) throws -> Todo {
        guard isOpen else { throw Abort(.serviceUnavailable, reason: "the todo store is closed") }
        let todo = Todo(id: todos.count + 1, user: user, title: title)
        todos.append(todo)
        return todo
    }

    /// How many todos are open (for the reminders).
    public var count: Int { todos.count }

    /// Closes the store; returns how many todos it held.
    func close() -> Int {
        isOpen = false
        return todos.count
    }
}

/// What one request changed, reported when its scope ends: a scoped service.
public final class TodoAudit: Sendable {
    private let transcript: Transcript?
    private let changes = Mutex<[String]>([])

    init(transcript: Transcript?) {
        self.transcript = transcript
    }

    /// Records a change.
    public func record(_ change: String) { changes.withLock { $0.append(change) } }

    func report() {
        let changes = changes.withLock { $0 }
        if !changes.isEmpty { transcript?.write("audit: \(changes.joined(separator: ", "))") }
    }
}
