import LifecycleCore

/// Ends the session scopes (``SessionScopes``) when the host terminates, and writes
/// `sessions: <n> ended`. The server has answered its last request by then (`HTTPServerModule`'s work
/// stops before `willTerminate`; the ServiceGroup lists the host first): no request scope is left, and no
/// session opens afterwards.
struct SessionModule: LifecycleModule, WillTerminate {
    static let priority: ModulePriority = .normal
    let services: ExampleServices

    init(context: LifecycleContext) throws {
        services = try context.exampleServices(for: Self.self)
    }

    func willTerminate(_ context: LifecycleContext) async {
        let ended = await services.sessions.endAll()
        services.transcript.write("sessions: \(ended) ended")
    }
}
