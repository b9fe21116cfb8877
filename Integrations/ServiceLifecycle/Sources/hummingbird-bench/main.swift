import EndToEndBench
import LifecycleCore

// What a Hummingbird request pays for ModuleLifecycle, end to end (issue 35, Docs/Performance.md "End to
// end"), side by side in one process on 127.0.0.1, with the load generator on raw sockets at 1 and 64
// concurrent clients, taking turns round by round (`EndToEndBench`'s `LoadComparison`):
//
// - "end-to-end": `GET /orders/7` with everything a module's request path can carry (a request scope with two
//   global actions, an adopted behavior, three scoped services, a route opened through three interceptors, a
//   message to another module) against the same work written by hand, and that again as the control (the two
//   are the same, so its ratio to the first is the run's noise floor).
// - "parts": the same path built up one piece at a time, each side adding one to the side before it, so the
//   difference between two neighbours is what that piece costs in a real server. The route comes twice: from
//   a host whose router has no interceptor budget, then from the host in the default configuration (10 s).
//
// Release build: `swift run -c release --package-path Integrations/ServiceLifecycle hummingbird-bench`
// (`--quick` for a smoke run, `--rounds N`, `--requests N` per round and side, `--only end-to-end` or
// `--only parts`).

let options = BenchOptions()
let comparison = LoadComparison(options)
let answer = "order 7 of 8"
let (host, scopes) = try await launchOrdersHost()
var hosts = [host]
var servers: [OrdersServer] = []

/// A side served by `server`, which is stopped at the end.
@MainActor func side(_ name: String, _ server: OrdersServer) -> LoadComparison.Side {
    servers.append(server)
    return LoadComparison.Side(name: name, port: server.port, path: "/orders/7", expected: answer)
}

if options.runs("end-to-end") {
    try comparison.run(
        "end to end (Hummingbird)",
        [
            side("by hand", try await makeHandWrittenOrders()),
            side("by hand again (control)", try await makeHandWrittenOrders()),
            side("ModuleLifecycle", try await makeModularOrders(host, scopes)),
        ]
    )
}

if options.runs("parts") {
    let (lean, leanScopes) = try await launchOrdersHost(interceptorBudget: nil)
    hosts.append(lean)
    try comparison.run(
        "the parts, one added per side (Hummingbird)",
        [
            side("by hand", try await makeHandWrittenOrders()),
            side("request scope, 2 actions", try await makeModularOrders(host, scopes, parts: [])),
            side("+ behavior", try await makeModularOrders(host, scopes, parts: [.behavior])),
            side("+ 3 scoped services", try await makeModularOrders(host, scopes, parts: [.behavior, .services])),
            side(
                "+ route, 3 interceptors, no budget",
                try await makeModularOrders(lean, leanScopes, parts: [.behavior, .services, .route])
            ),
            side(
                "+ route, 3 interceptors, default budget",
                try await makeModularOrders(host, scopes, parts: [.behavior, .services, .route])
            ),
            side("+ message (everything)", try await makeModularOrders(host, scopes, parts: .all)),
        ]
    )
}

for server in servers { try await server.stop() }
for host in hosts { try await host.terminate() }
