// The same work as ``OrderDesk`` without ModuleLifecycle: the hooks, objects, interceptors and the question
// as plain calls.

/// `GET /orders/:id` by hand: two request-wide hooks and one per-request behavior, begun and ended in
/// reverse; three per-request objects; three interceptors that let the request through; the route's handler;
/// a direct call for the question. Answers "order 7 of 8", as ``OrderDesk`` does.
public struct HandWrittenOrders: Sendable {
    struct Action {
        let seen: Counter
        func didBegin() async { seen.add() }
        func willEnd() async { seen.add() }
    }

    struct Behavior {
        let seen: Counter
        mutating func didBegin() async { seen.add() }
        mutating func willEnd() async { seen.add() }
    }

    enum Decision { case proceed, reject }

    struct Interceptor {
        func intercept(_ id: Int) async -> Decision { .proceed }
    }

    struct Rejected: Error {}

    let seen = Counter()
    let actions: [Action]
    let interceptors = [Interceptor(), Interceptor(), Interceptor()]

    public init() {
        actions = [Action(seen: seen), Action(seen: seen)]
    }

    /// Answers order `id`: "order 7 of 8".
    public func answer(_ id: Int) async throws -> String {
        for action in actions { await action.didBegin() }
        var behavior = Behavior(seen: seen)
        await behavior.didBegin()
        let trace = RequestTrace()
        let user = RequestUser()
        let cart = RequestCart()
        for interceptor in interceptors where await interceptor.intercept(id) == .reject {
            throw Rejected()
        }
        let order = await Self.showOrder(id)
        let next = await Self.nextOrder(after: order + trace.id + user.id + cart.id - 6)
        await behavior.willEnd()
        for action in actions.reversed() { await action.willEnd() }
        return "order \(order) of \(next)"
    }

    static func showOrder(_ id: Int) async -> Int { id }
    static func nextOrder(after: Int) async -> Int { after + 1 }
}
