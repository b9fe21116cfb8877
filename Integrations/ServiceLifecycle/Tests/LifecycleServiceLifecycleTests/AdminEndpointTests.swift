import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the example server as a real process and sends real HTTP requests to its admin API (`/admin/**`),
/// which the server forwards to the host's router: the interceptors judge each request, and the router's
/// errors come back as HTTP statuses with a JSON body.
@Suite("The admin API of the example server, over HTTP", .serialized, .timeLimit(.minutes(5)))
struct AdminEndpointTests {
    /// The token each test starts the server with, as `ADMIN_TOKEN`.
    let token = "test-token-\(UUID().uuidString)"

    init() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ExampleProcess.binary.path),
            "\(ExampleProcess.binary.path) is missing: build the package first (swift build), or set SERVICE_LIFECYCLE_EXAMPLE"
        )
    }

    /// An error answer's body.
    struct Failure: Decodable {
        let status: Int
        let error: String
        let interceptor: String?
        let description: String
    }

    /// The body of `GET /admin/modules`.
    struct Modules: Decodable {
        struct Module: Decodable {
            let name: String
            let priority: Int?
            let dependencies: [String]
            let degraded: Bool
        }
        let state: String
        let modules: [Module]
        let disabled: [String]
    }

    /// A running example and its port.
    struct Server {
        let example: ExampleProcess
        let port: Int

        /// Sends `method path` with `headers`.
        func send(_ method: String, _ path: String, headers: [String: String] = [:]) async -> HTTPExchange {
            await HTTPExchange.request(method, port: port, path: path, headers: headers)
        }

        /// Sends `method path` with `Authorization: Bearer token`.
        func send(_ method: String, _ path: String, token: String) async -> HTTPExchange {
            await send(method, path, headers: ["Authorization": "Bearer \(token)"])
        }

        var context: String {
            "Transcript:\n\(example.transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"
        }

        /// Sends SIGTERM, and expects a clean exit.
        func stop() async {
            example.send(SIGTERM)
            let status = await example.waitForExit()
            #expect(status == 0, "a clean graceful shutdown exits with 0. \(context)")
        }
    }

    /// Starts the example on a free port, with `arguments` and `ADMIN_TOKEN` set to `adminToken` (`nil`
    /// removes it), and waits until it serves.
    func start(arguments: [String] = [], adminToken: String?) async throws -> Server {
        let example = try ExampleProcess(
            arguments: ["--port", "0", "--drain-delay", "0"] + arguments,
            environment: ["ADMIN_TOKEN": adminToken]
        )
        let port = try #require(
            await example.waitUntilServing(),
            "the server never served. Standard error:\n\(example.standardError)"
        )
        return Server(example: example, port: port)
    }

    func decode<T: Decodable>(_ type: T.Type, _ answer: HTTPExchange) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(answer.body.utf8))
    }

    @Test("With the token, in the Authorization header or the query, the admin routes answer 200 and JSON")
    func authorisedRequestsSucceed() async throws {
        let server = try await start(adminToken: token)

        let modules = await server.send("GET", "/admin/modules", token: token)
        #expect(modules.status == 200, "\(modules)")
        #expect(modules.headers["content-type"] == "application/json; charset=utf-8")
        let report = try decode(Modules.self, modules)
        #expect(report.state == "active")
        #expect(
            report.modules.map(\.name) == [
                "LifecycleServices.ServiceRegistryModule",
                "service_lifecycle_example.StoreModule",
                "service_lifecycle_example.StoreReaderModule",
                "service_lifecycle_example.TrafficModule",
                "service_lifecycle_example.AdminModule",
                "service_lifecycle_example.SessionModule",
                "service_lifecycle_example.HTTPServerModule",  // serves these requests, from its work
                "LifecycleRouting.RouterModule",
            ]
        )
        let admin = try #require(report.modules.first { $0.name.hasSuffix(".AdminModule") })
        #expect(admin.dependencies == ["service_lifecycle_example.StoreModule (requires service `Store`)"])
        #expect(report.modules.allSatisfy { !$0.degraded })

        // The token as a query item works as well as the header.
        let item = await server.send("GET", "/admin/items/7?token=\(token)")
        #expect(item.status == 200 && item.body == #"{"id":7,"value":"value-7"}"# + "\n", "\(item)")

        // A write: items 101 to 150 did not exist before it.
        let missing = await server.send("GET", "/admin/items/150", token: token)
        #expect(missing.status == 404, "\(missing)")
        let fill = await server.send("POST", "/admin/store/fill?count=150", token: token)
        #expect(fill.status == 200 && fill.body == #"{"items":150,"written":150}"# + "\n", "\(fill)")
        let filled = await server.send("GET", "/admin/items/150", token: token)
        #expect(filled.status == 200 && filled.body == #"{"id":150,"value":"value-150"}"# + "\n", "\(filled)")

        #expect(
            await server.example.waitForLines(["admin GET /admin/modules 200", "admin POST /admin/store/fill 200"])
        )
        #expect(server.example.transcript.contains("admin: token from ADMIN_TOKEN"))
        #expect(!server.example.transcript.contains { $0.contains(token) }, "the transcript never shows the token")
        await server.stop()
        #expect(server.example.transcript.contains("store: closed with 150 items"), "\(server.context)")
    }

    /// The body of `POST /admin/probe/register` and `/remove`.
    struct Probe: Decodable {
        let registered: Bool
        let participants: Int
    }

    @Test("The probe module joins the running host and leaves it; twice either way is 409, and nothing changed")
    func theProbeModuleIsRegisteredAndRemovedAtRunTime() async throws {
        let server = try await start(adminToken: token)
        let before = try decode(Modules.self, await server.send("GET", "/admin/modules", token: token)).modules

        for round in 1...3 {
            let register = await server.send("POST", "/admin/probe/register", token: token)
            #expect(register.status == 200, "round \(round): \(register)")
            let registered = try decode(Probe.self, register)
            #expect(registered.registered && registered.participants == before.count + 1, "\(register)")
            let modules = try decode(Modules.self, await server.send("GET", "/admin/modules", token: token)).modules
            // In its place by priority (.low): after the example's modules, before the router's (.minimum).
            var expected = before.map(\.name)
            expected.insert("service_lifecycle_example.ProbeModule", at: expected.count - 1)
            #expect(expected.last == "LifecycleRouting.RouterModule")
            #expect(modules.map(\.name) == expected)

            let again = await server.send("POST", "/admin/probe/register", token: token)
            #expect(again.status == 409, "\(again)")
            #expect(try decode(Failure.self, again).description.contains("is already a participant"), "\(again)")

            let remove = await server.send("POST", "/admin/probe/remove", token: token)
            #expect(remove.status == 200, "\(remove)")
            #expect(try decode(Probe.self, remove).participants == before.count, "\(remove)")
            let gone = await server.send("POST", "/admin/probe/remove", token: token)
            #expect(gone.status == 409, "\(gone)")
            #expect(try decode(Failure.self, gone).description.contains("is not a participant"), "\(gone)")
        }
        let after = try decode(Modules.self, await server.send("GET", "/admin/modules", token: token)).modules
        #expect(after.map(\.name) == before.map(\.name))

        // Each registration caught the probe up to the active host, and each removal tore it down.
        let probe = server.example.transcript.filter { $0.hasSuffix(" ProbeModule") }
        let cycle = ["lifecycle didBecomeActive ProbeModule", "lifecycle willTerminate ProbeModule"]
        #expect(probe == Array(repeating: cycle, count: 3).flatMap { $0 }, "\(server.context)")
        // Without the token, nothing is registered; an action that is neither is 400.
        let refused = await server.send("POST", "/admin/probe/register")
        #expect(refused.status == 401, "\(refused)")
        let unknown = await server.send("POST", "/admin/probe/restart", token: token)
        #expect(unknown.status == 400 && unknown.body.contains("restart is not one"), "\(unknown)")
        await server.stop()
        // Removed, it receives nothing of the host's own termination.
        #expect(server.example.transcript.filter { $0.hasSuffix(" ProbeModule") }.count == 6, "\(server.context)")
    }

    @Test("Without the token 401, with a wrong one 403: the body names AdminTokenInterceptor, and nothing ran")
    func requestsWithoutTheTokenAreRefused() async throws {
        let server = try await start(adminToken: token)
        let interceptor = "service_lifecycle_example.AdminTokenInterceptor"

        for (headers, path) in [
            ([:], "/admin/modules"),
            (["Authorization": "Basic \(token)"], "/admin/modules"),  // another scheme is no token
            ([:], "/admin/modules?token="),
        ] {
            let answer = await server.send("GET", path, headers: headers)
            #expect(answer.status == 401, "\(path) \(headers): \(answer)")
            #expect(answer.headers["www-authenticate"] == #"Bearer realm="admin""#, "\(answer)")
            let failure = try decode(Failure.self, answer)
            #expect(failure.status == 401 && failure.error == "rejected" && failure.interceptor == interceptor)
            #expect(failure.description.hasPrefix("\(interceptor) rejected"), "\(failure.description)")
            #expect(failure.description.contains("no admin token"), "\(failure.description)")
        }

        let wrong = "wrong-\(UUID().uuidString)"
        for answer in [
            await server.send("POST", "/admin/store/fill?count=150&token=\(wrong)"),
            await server.send("POST", "/admin/store/fill?count=150", token: wrong),
            // The header wins over the query.
            await server.send("POST", "/admin/store/fill?count=150&token=\(token)", token: wrong),
        ] {
            #expect(answer.status == 403, "\(answer)")
            let failure = try decode(Failure.self, answer)
            #expect(failure.status == 403 && failure.error == "rejected" && failure.interceptor == interceptor)
            #expect(failure.description.contains("service_lifecycle_example.FillStore (/admin/store/fill?count=150)"))
            #expect(!answer.body.contains(wrong) && !answer.body.contains(token), "no token in the answer: \(answer)")
        }

        // None of the refused writes ran: item 150 is still missing.
        let item = await server.send("GET", "/admin/items/150", token: token)
        #expect(item.status == 404, "\(item)")
        #expect(
            await server.example.waitForLines(["admin GET /admin/modules 401", "admin POST /admin/store/fill 403"])
        )
        await server.stop()
        #expect(server.example.transcript.contains("store: closed with 100 items"), "\(server.context)")
    }

    @Test("An admin path no route matches is 404 noRoute; an item the store lacks is 404 too")
    func unknownPathsAre404() async throws {
        let server = try await start(adminToken: token)

        for path in ["/admin/nothing", "/admin/items/7/extra", "/admin/modules/7"] {
            let answer = await server.send("GET", path, token: token)
            #expect(answer.status == 404, "\(path): \(answer)")
            let failure = try decode(Failure.self, answer)
            #expect(failure.error == "noRoute" && failure.interceptor == nil, "\(path): \(failure)")
            #expect(failure.description.hasPrefix("No route matches \(path)."), "\(failure.description)")
            #expect(failure.description.contains("/admin/items/:id"), "it lists the patterns: \(failure.description)")
        }

        let item = await server.send("GET", "/admin/items/999", token: token)
        #expect(item.status == 404, "\(item)")
        let failure = try decode(Failure.self, item)
        #expect(failure.error == "handlerFailed" && failure.description.contains("the store has no item 999"))
        await server.stop()
    }

    @Test("A parameter that is not of its type, or that the route refuses, is 400; a wrong method is 405")
    func badParametersAre400() async throws {
        let server = try await start(adminToken: token)

        for (method, path, error, words) in [
            ("GET", "/admin/items/abc", "invalidParameter", "`id`"),
            ("GET", "/admin/items/0", "invalidInput", "item ids start at 1"),
            ("POST", "/admin/store/fill?count=lots", "invalidParameter", "`count`"),
            ("POST", "/admin/store/fill?count=0", "invalidInput", "count must be 1 to 10000"),
            ("POST", "/admin/store/fill?count=10001", "invalidInput", "count must be 1 to 10000"),
        ] {
            let answer = await server.send(method, path, token: token)
            #expect(answer.status == 400, "\(method) \(path): \(answer)")
            let failure = try decode(Failure.self, answer)
            #expect(failure.status == 400 && failure.error == error, "\(method) \(path): \(failure)")
            #expect(failure.description.contains(words), "\(method) \(path): \(failure.description)")
        }

        let get = await server.send("GET", "/admin/store/fill", token: token)
        #expect(get.status == 405 && get.headers["allow"] == "POST", "\(get)")
        #expect(try decode(Failure.self, get).error == "methodNotAllowed")
        let put = await server.send("PUT", "/admin/items/1", token: token)
        #expect(put.status == 405 && put.headers["allow"] == "GET", "\(put)")
        await server.stop()
        #expect(server.example.transcript.contains("store: closed with 100 items"), "no refused write ran")
    }

    @Test("A path that climbs (`..` or `.`, percent-encoded, or an encoded `/` beside one) is 400 invalidPath")
    func climbingPathsAre400() async throws {
        let server = try await start(adminToken: token)

        for path in ["/admin/%2E%2E/modules", "/admin/items/%2e%2e", "/admin/items/..%2Fmodules", "/admin/items/.%2E"] {
            let answer = await server.send("GET", path, token: token)
            #expect(answer.status == 400, "\(path): \(answer)")
            let failure = try decode(Failure.self, answer)
            #expect(failure.error == "invalidPath" && failure.interceptor == nil, "\(path): \(failure)")
        }
        // The router refuses before any route or interceptor runs: no token needed to learn it, nothing ran.
        let anonymous = await server.send("GET", "/admin/%2E%2E/modules")
        #expect(anonymous.status == 400, "\(anonymous)")
        await server.stop()
    }

    @Test("The token is --admin-token, else ADMIN_TOKEN, else the documented default")
    func theTokenComesFromTheOptionTheEnvironmentOrTheDefault() async throws {
        let unset = try await start(adminToken: nil)
        #expect(unset.example.transcript.contains("admin: token from the default"), "\(unset.context)")
        #expect(await unset.send("GET", "/admin/modules", token: "example-admin-token").status == 200)
        #expect(await unset.send("GET", "/admin/modules", token: token).status == 403)
        await unset.stop()

        let option = "option-\(UUID().uuidString)"
        let both = try await start(arguments: ["--admin-token", option], adminToken: token)
        #expect(both.example.transcript.contains("admin: token from --admin-token"), "\(both.context)")
        #expect(await both.send("GET", "/admin/modules", token: option).status == 200)
        #expect(await both.send("GET", "/admin/modules", token: token).status == 403)
        #expect(await both.send("GET", "/admin/modules", token: "example-admin-token").status == 403)
        await both.stop()
    }
}
