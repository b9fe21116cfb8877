import Accounts
import LifecycleCore
import LifecycleMessaging
import LifecycleTesting
import Testing

@testable import ModularServer

/// The server's host, in the test's process: built from the manifest the server runs, with a log and a
/// key of its own, so tests can run in parallel.
@Suite struct ServerTests {
    let log = RecordedLog()

    /// A launched host of the server's modules, and the server that answers its requests.
    func launchServer() async throws -> (LineServer, ManifestLaunch) {
        var options = LaunchOptions(environment: ["MODULAR_SERVER_KEY": "tutorial"])
        options[ServerLogKey.self] = log.serverLog
        let launch = try await launchManifest(.discovered, launchOptions: options)
        return (LineServer(host: launch.host), launch)
    }

    @Test func aGreetingNamesTheAccountAndCountsTheVisit() async throws {
        let (server, launch) = try await launchServer()
        #expect(await server.respond(to: "GET /greetings/42") == "200 hello, Ada! (visit 1)")
        #expect(await server.respond(to: "GET /greetings/42") == "200 hello, Ada! (visit 2)")
        #expect(await server.respond(to: "GET /accounts/42?key=tutorial") == "200 account 42: Ada, 2 visit(s)")
        try await launch.host.terminate()
    }

    @Test func aGreetingSendsRecordVisitToAccounts() async throws {
        let (server, launch) = try await launchServer()
        let visits = try launch.host.context.messages.listen(to: RecordVisit.self, for: .seconds(10))
        _ = await server.respond(to: "GET /greetings/7")
        var heard = visits.makeAsyncIterator()
        #expect(await heard.next()?.account == 7)
        visits.cancel()
        try await launch.host.terminate()
    }

    @Test func everyRequestRunsInARequestScopeThatTheActionLogs() async throws {
        let (server, launch) = try await launchServer()
        let scopes = ScopeRecorder(observing: launch.host)
        _ = await server.respond(to: "GET /greetings/42")
        #expect(
            scopes.timeline("GET /greetings/42") == [
                "begin RequestLogAction", "activate RequestLogAction", "deactivate RequestLogAction",
                "end RequestLogAction",
            ]
        )
        #expect(log.lines == ["→ GET /greetings/42", "← GET /greetings/42"])
        try await launch.host.terminate()
    }

    @Test func anAccountNeedsTheKeyAGreetingDoesNot() async throws {
        let (server, launch) = try await launchServer()
        #expect(
            await server.respond(to: "GET /accounts/42")
                == "403 an account needs ?key= with the server's MODULAR_SERVER_KEY"
        )
        #expect(await server.respond(to: "GET /accounts/42?key=guess").hasPrefix("403 "))
        #expect(await server.respond(to: "GET /greetings/42").hasPrefix("200 "))
        try await launch.host.terminate()
    }

    @Test func badRequestsAreAnsweredWithTheirStatus() async throws {
        let (server, launch) = try await launchServer()
        #expect(await server.respond(to: "GET /greetings/99") == "404 no account has the id 99")
        #expect(await server.respond(to: "GET /greetings/ada").hasPrefix("400 "))
        #expect(await server.respond(to: "GET /weather").hasPrefix("404 "))
        #expect(await server.respond(to: "DELETE /accounts/42") == "400 expected GET /path, got DELETE /accounts/42")
        try await launch.host.terminate()
    }
}
