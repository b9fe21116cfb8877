import Accounts
import Foundation
import LifecycleCore
import LifecycleRouting
import LifecycleScopes

/// The server's transport: one request per line, `GET /path`, and one response per line, a status and
/// a text, `200 hello, Ada! (visit 1)`.
///
/// Each request runs in a request scope, and is opened through the host's router: the interceptors judge
/// it, then the module that serves its route answers.
struct LineServer: Sendable {
    let host: ApplicationHost

    /// The response to one request line.
    func respond(to request: String) async -> String {
        let words = request.split(separator: " ")
        guard words.count == 2, words[0] == "GET", let url = URL(string: String(words[1])) else {
            return "400 expected GET /path, got \(request)"
        }
        guard let router = host.router, let scopes = host.scopes else { return "503 the server is not running" }
        do {
            // Named by the path without its query, so the log never shows a key.
            return try await scopes.withScope(.request, "GET \(url.path)") { _ in
                "200 \(try await router.open(url: url))"
            }
        } catch let error as RouteError {
            return "\(status(of: error)) \(error.underlying.map { "\($0)" } ?? "\(error)")"
        } catch {
            return "500 \(error)"
        }
    }

    /// The status of a request that failed with `error`.
    func status(of error: RouteError) -> Int {
        switch error.code {
        case .noRoute: 404
        case .invalidParameter, .missingParameter: 400
        case .rejected: 403
        case .handlerFailed where error.underlying is UnknownAccount: 404
        default: 500
        }
    }

    /// Answers each line of `requests` once the host is ready, in order, until they end; then terminates
    /// the host, as a server does when its listener closes.
    func serve(_ requests: AsyncStream<String>, answer: @Sendable (String) -> Void) async {
        let log = host.context.launchOptions[ServerLogKey.self]
        do {
            try await host.waitUntilReady()
        } catch {
            return  // launch failed, or the host terminated first: HostRunner reports it
        }
        log.write("server: answering requests")
        for await request in requests {
            answer(await respond(to: request))
        }
        log.write("server: no more requests")
        try? await host.terminate()
    }
}
