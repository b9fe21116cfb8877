import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the example server as a real process and sends it real HTTP requests: each runs in a request scope
/// (`RequestScopeMiddleware`), whose timing and audit behaviors write to the transcript, nested in the
/// scope of its session (`X-Session`), which welcomes once and ends when the host terminates.
@Suite("Request and session scopes of the example server, over HTTP", .serialized, .timeLimit(.minutes(5)))
struct RequestScopeTests {
    init() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ExampleProcess.binary.path),
            "\(ExampleProcess.binary.path) is missing: build the package first (swift build), or set SERVICE_LIFECYCLE_EXAMPLE"
        )
    }

    /// The body of `GET /scopes`.
    struct Scopes: Decodable {
        struct Entry: Decodable {
            let id: UInt64
            let kind: String
            let name: String
            let state: String
            let parent: UInt64?
        }
        let current: UInt64?
        let inFlight: [Entry]

        func requests() -> [Entry] { inFlight.filter { $0.kind == "request" } }
        func sessions() -> [Entry] { inFlight.filter { $0.kind == "session" } }
    }

    /// A running example and its port.
    struct Server {
        let example: ExampleProcess
        let port: Int

        /// Starts the example on a free port and waits until it serves.
        init(_ arguments: [String] = [], logLevel: String? = "info") async throws {
            // The timing, audit and session lines are per-request lines, at .info: off by default.
            example = try ExampleProcess(
                arguments: ["--port", "0", "--drain-delay", "0"] + (logLevel.map { ["--log-level", $0] } ?? [])
                    + arguments
            )
            port = try #require(
                await example.waitUntilServing(),
                "the server never served. Standard error:\n\(example.standardError)"
            )
        }

        /// Sends `method path`, in session `session` if given.
        func send(_ path: String, method: String = "GET", session: String? = nil) async -> HTTPExchange {
            await HTTPExchange.request(
                method,
                port: port,
                path: path,
                headers: session.map { ["X-Session": $0] } ?? [:]
            )
        }

        /// `GET /scopes`, decoded.
        func scopes(session: String? = nil) async throws -> Scopes {
            let answer = await send("/scopes", session: session)
            try #require(answer.status == 200, "GET /scopes: \(answer)")
            return try JSONDecoder().decode(Scopes.self, from: Data(answer.body.utf8))
        }

        var transcript: [String] { example.transcript }

        /// Waits until `condition` holds for the lines read so far: the server writes a request's lines
        /// before it answers, but the test reads standard output on a thread of its own. `false` after
        /// `timeout`.
        func waitUntil(timeout: Duration = .seconds(30), _ condition: ([String]) -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + timeout
            while !condition(transcript) {
                guard ContinuousClock.now < deadline else { return false }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return true
        }

        /// How many lines of the transcript are `line`.
        func count(_ line: String) -> Int { transcript.filter { $0 == line }.count }

        var context: String {
            "Transcript:\n\(transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"
        }

        /// Sends SIGTERM, expects a clean exit, and waits until the last line is read.
        func stop() async {
            example.send(SIGTERM)
            let status = await example.waitForExit()
            #expect(status == 0, "a clean graceful shutdown exits with 0. \(context)")
            #expect(await waitUntil { $0.last == "exit: clean" }, "\(context)")
        }
    }

    /// The milliseconds of the `timing <METHOD> <path> <ms> ms` lines of `method path`.
    static func timings(_ method: String, _ path: String, in transcript: [String]) -> [Double] {
        let prefix = "timing \(method) \(path) "
        return transcript.filter { $0.hasPrefix(prefix) && $0.hasSuffix(" ms") }.compactMap {
            Double($0.dropFirst(prefix.count).dropLast(" ms".count))
        }
    }

    @Test("Each request writes a timing line and an audit line with its method, path and status")
    func everyRequestIsTimedAndAudited() async throws {
        let server = try await Server()
        let requests: [(method: String, path: String, status: Int)] = [
            ("GET", "/items/6", 200),
            ("GET", "/items/5", 200),
            ("GET", "/items/999", 404),  // the handler throws HTTPError(.notFound)
            ("GET", "/nowhere", 404),  // no route: the middleware still wraps it
            ("POST", "/items/6", 404),  // no route for the method
            ("GET", "/admin/modules", 401),  // the admin API, refused by its interceptor
        ]
        for (method, path, status) in requests {
            let answer = await server.send(path, method: method)
            #expect(answer.status == status, "\(method) \(path): \(answer)")
        }
        // The query is not part of the path; the timing covers the handler's delay.
        let slow = await server.send("/items/1?delay=300")
        #expect(slow.status == 200, "\(slow)")
        // An invalid session id is answered 400, inside a request scope, so it is audited too.
        let invalid = await server.send("/items/2", session: "not a valid id!")
        #expect(invalid.status == 400, "\(invalid)")

        let expected =
            requests.map { "audit \($0.method) \($0.path) \($0.status)" } + [
                "audit GET /items/1 200", "audit GET /items/2 400",
            ]
        // The last request's timing line is the last line it writes.
        #expect(await server.waitUntil { Self.timings("GET", "/items/2", in: $0).count == 1 }, "\(server.context)")
        let transcript = server.transcript
        for line in expected {
            #expect(transcript.filter { $0 == line }.count == 1, "one \(line). \(server.context)")
        }
        for (method, path, _) in requests + [("GET", "/items/1", 200), ("GET", "/items/2", 400)] {
            let timings = Self.timings(method, path, in: transcript)
            #expect(timings.count == 1, "one timing line for \(method) \(path). \(server.context)")
            #expect(timings.allSatisfy { $0 >= 0 }, "\(method) \(path): \(timings)")
        }
        #expect(Self.timings("GET", "/items/1", in: transcript).allSatisfy { $0 >= 300 }, "\(server.context)")
        // Both write at willEnd, which goes in reverse of adoption: RequestAudit, adopted last, first.
        let timing = try #require(transcript.firstIndex { $0.hasPrefix("timing GET /items/5 ") })
        let audit = try #require(transcript.firstIndex(of: "audit GET /items/5 200"))
        #expect(timing > audit, "RequestAudit, adopted last, ends first. \(server.context)")
        #expect(!transcript.contains { $0.hasPrefix("session ") }, "no session without X-Session. \(server.context)")
        await server.stop()
    }

    @Test("Each /items request reads through a reader of its own (a scoped service), closed when its scope ends")
    func eachRequestHasItsOwnScopedReader() async throws {
        let server = try await Server()
        // 16 at once, so requests overlap: each still gets its own reader, made for it and closed after it.
        await withTaskGroup(of: Void.self) { group in
            for id in 1...16 {
                group.addTask {
                    let answer = await server.send("/items/\(id)", session: id.isMultiple(of: 2) ? "s\(id)" : nil)
                    #expect(answer.status == 200, "\(answer)")
                }
            }
        }
        let missing = await server.send("/items/999")
        #expect(missing.status == 404, "\(missing)")
        for id in 1...16 {
            let line = "request items/\(id) reader closed after 2 reads"
            #expect(await server.waitUntil { $0.contains(line) }, "\(line)\n\(server.context)")
            #expect(server.count(line) == 1)
            // Closed at the scope's end: after the request's completion and its scope's end actions.
            let transcript = server.transcript
            let completed = try #require(transcript.firstIndex(of: "request items/\(id) completed"))
            let timing = try #require(transcript.firstIndex { $0.hasPrefix("timing GET /items/\(id) ") })
            let closed = try #require(transcript.firstIndex(of: line))
            #expect(completed < closed && timing < closed, "\(server.context)")
        }
        // The missing item: one read, then the handler threw; its reader still closes.
        #expect(await server.waitUntil { $0.contains("request items/999 reader closed after 1 read") })
        #expect(server.transcript.filter { $0.contains(" reader closed after ") }.count == 17)
        await server.stop()
    }

    @Test("A session welcomes once: 16 concurrent first requests, then two sessions, two welcomes")
    func aSessionWelcomesOnce() async throws {
        let server = try await Server()

        // 16 first requests of one session, at once: one session scope, one welcome.
        let statuses = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<16 {
                group.addTask { await server.send("/items/3?delay=50", session: "racer").status }
            }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 16), "\(statuses)")
        #expect(await server.waitUntil { Self.timings("GET", "/items/3", in: $0).count == 16 }, "\(server.context)")
        #expect(server.count("session racer: began") == 1, "\(server.context)")
        #expect(server.count("session racer: welcome") == 1, "\(server.context)")
        #expect(server.count("audit GET /items/3 200 session racer") == 16, "\(server.context)")
        #expect(Self.timings("GET", "/items/3", in: server.transcript).count == 16, "\(server.context)")

        // Two more sessions, two requests each: one welcome each, and none again for racer.
        for session in ["alice", "bob", "alice", "bob", "racer"] {
            let answer = await server.send("/items/4", session: session)
            #expect(answer.status == 200, "\(session): \(answer)")
        }
        #expect(await server.waitUntil { Self.timings("GET", "/items/4", in: $0).count == 5 }, "\(server.context)")
        for session in ["alice", "bob", "racer"] {
            #expect(server.count("session \(session): began") == 1, "\(session). \(server.context)")
            #expect(server.count("session \(session): welcome") == 1, "\(session). \(server.context)")
        }
        #expect(server.count("audit GET /items/4 200 session alice") == 2, "\(server.context)")
        #expect(server.count("audit GET /items/4 200 session bob") == 2, "\(server.context)")
        #expect(server.transcript.filter { $0.hasSuffix(": welcome") }.count == 3, "\(server.context)")
        // Each session began before its welcome, and welcomed before its first request was audited.
        for session in ["alice", "bob", "racer"] {
            let began = try #require(server.transcript.firstIndex(of: "session \(session): began"))
            let welcome = try #require(server.transcript.firstIndex(of: "session \(session): welcome"))
            let audited = try #require(server.transcript.firstIndex { $0.hasSuffix(" session \(session)") })
            #expect(began < welcome && welcome < audited, "\(session). \(server.context)")
        }
        await server.stop()
    }

    @Test("Request scopes are nested in their session's; none is left after the requests, no session after shutdown")
    func scopesAreNestedAndNothingIsLeftInFlight() async throws {
        let server = try await Server()
        for session in ["alice", "bob"] {
            #expect(await server.send("/items/6", session: session).status == 200)
        }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    _ = await server.send("/items/\(index + 1)", session: index.isMultiple(of: 2) ? "alice" : "bob")
                }
            }
        }

        // The handler runs in its own request scope, nested in alice's session scope.
        let inAlice = try await server.scopes(session: "alice")
        let alice = try #require(inAlice.sessions().first { $0.name == "alice" }, "\(inAlice)")
        #expect(alice.state == "active" && alice.parent == nil, "\(alice)")
        let own = try #require(inAlice.requests().first { $0.id == inAlice.current }, "\(inAlice)")
        #expect(own.name == "GET /scopes" && own.state == "active", "\(own)")
        #expect(own.parent == alice.id, "the request scope is nested in alice's: \(inAlice)")
        #expect(
            await server.waitUntil { $0.contains("audit GET /items/6 200 session alice") },
            "the audit names the request's session: its scope's parent. \(server.context)"
        )

        // Without a session: no parent. Every request answered so far has left: only this one is in flight.
        let alone = try await server.scopes()
        #expect(alone.requests().map(\.name) == ["GET /scopes"], "\(alone)")
        #expect(alone.requests().first?.id == alone.current && alone.requests().first?.parent == nil, "\(alone)")
        #expect(alone.sessions().map(\.name) == ["alice", "bob"], "the sessions last: \(alone)")
        #expect(alone.sessions().allSatisfy { $0.state == "active" }, "\(alone)")

        await server.stop()
        let transcript = server.transcript
        // SessionModule's willTerminate ended both sessions, once each, after every request was audited and
        // before the store closed; then nothing was left in flight.
        let lastAudit = try #require(transcript.lastIndex { $0.hasPrefix("audit ") }, "\(server.context)")
        let closing = try #require(transcript.firstIndex(of: "store: closing"), "\(server.context)")
        for session in ["alice", "bob"] {
            #expect(server.count("session \(session): ended") == 1, "\(session). \(server.context)")
            let ended = try #require(transcript.firstIndex(of: "session \(session): ended"))
            #expect(lastAudit < ended && ended < closing, "\(session). \(server.context)")
        }
        #expect(transcript.contains("sessions: 2 ended"), "\(server.context)")
        #expect(transcript.contains("scopes in flight: 0"), "\(server.context)")
        #expect(transcript.last == "exit: clean", "\(server.context)")
    }

    @Test("Many distinct session ids: never more than --max-sessions kept; the least recently used end first")
    func sessionsAreBounded() async throws {
        let server = try await Server(["--max-sessions", "4"])
        // One new session after another: each past the fourth ends the least recently used.
        for index in 0..<40 {
            #expect(await server.send("/items/1", session: "s-\(index)").status == 200, "s-\(index)")
            let kept = try await server.scopes().sessions()
            #expect(kept.count <= 4, "after s-\(index): \(kept.map(\.name))")
        }
        let kept = try await server.scopes().sessions()
        #expect(kept.map(\.name) == ["s-36", "s-37", "s-38", "s-39"], "\(kept.map(\.name))")
        #expect(await server.waitUntil { $0.contains("session s-35: ended") }, "\(server.context)")
        for index in 0..<36 {
            #expect(server.count("session s-\(index): ended") == 1, "s-\(index) ended once. \(server.context)")
        }

        // Many new sessions at once, each request holding its session for 200 ms: a session in use is
        // never ended under its request, so those that find all four in use are answered 503.
        let statuses = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<24 {
                group.addTask { await server.send("/items/2?delay=200", session: "burst-\(index)").status }
            }
            var statuses: [Int?] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
        #expect(statuses.contains(200), "\(statuses)")
        #expect(try await server.scopes().sessions().count <= 4)

        await server.stop()
        #expect(server.transcript.contains { $0.hasPrefix("sessions: ") }, "\(server.context)")
        #expect(server.transcript.contains("scopes in flight: 0"), "\(server.context)")
    }

    @Test("At the default log level no request writes a line: the per-request lines are swift-log's .info")
    func requestLinesAreOffByDefault() async throws {
        let server = try await Server(logLevel: nil)
        for index in 0..<5 {
            #expect(await server.send("/items/\(index + 1)", session: "alice").status == 200)
        }
        await server.stop()
        let perRequest = ["audit ", "timing ", "request items/", "session alice"]
        let written = server.transcript.filter { line in perRequest.contains { line.hasPrefix($0) } }
        #expect(written.isEmpty, "\(written)")
        #expect(!perRequest.contains { server.example.standardError.contains($0) }, "\(server.example.standardError)")
        #expect(server.transcript.contains("sessions: 1 ended"), "the session was kept. \(server.context)")
    }
}
