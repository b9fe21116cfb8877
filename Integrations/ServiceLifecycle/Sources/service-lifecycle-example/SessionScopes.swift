import Hummingbird
import LifecycleScopes
import Synchronization

/// The example server's session scopes, one per session id (the `X-Session` header of
/// ``RequestScopeMiddleware``), in a `KeyedScopes` table: bounded, since any client can name a session.
/// A session's first request makes its scope, with a once-action that logs `session <id>: welcome`, then
/// begins and activates it; its requests' scopes are nested in it, and hold it while they run.
///
/// - At most ``capacity`` sessions (`--max-sessions`, 10,000 by default): a new session that finds the
///   table full ends the least recently used idle one first, and is answered 503 when every session is in
///   use by a request.
/// - A session idle for ``idleTimeout`` (`--session-idle-timeout`, in seconds, 30 minutes by default) is
///   ended.
/// - A session is never ended while one of its requests runs. `SessionModule` ends what is left when the
///   host terminates.
///
/// The defaults are `KeyedScopes`'s: 10,000 sessions are about 38 MiB at 3.8 KiB each.
final class SessionScopes: Sendable {
    /// The most sessions kept at once.
    let capacity: Int
    /// How long a session may go without a request before it is ended.
    let idleTimeout: Duration
    /// Where the welcome lines go.
    let log: RequestLog
    /// The table, once ``open(in:)`` made it in the host's scope registry.
    private let table = Mutex<KeyedScopes<String>?>(nil)

    /// No sessions yet: at most `capacity`, each ended after `idleTimeout` without a request; the welcome
    /// lines go to `log`.
    init(
        capacity: Int = KeyedScopes<String>.defaultCapacity,
        idleTimeout: Duration = KeyedScopes<String>.defaultIdleTimeout,
        log: RequestLog
    ) {
        self.capacity = capacity
        self.idleTimeout = idleTimeout
        self.log = log
    }

    /// Makes the table in `scopes`, the host's registry: once, before the server serves.
    ///
    /// - Throws: `KeyedScopesError` for a capacity under 1 or a timeout of zero or less.
    func open(in scopes: ScopeRegistry) throws(KeyedScopesError) {
        let log = log
        let sessions = try KeyedScopes<String>(.session, in: scopes, capacity: capacity, idleTimeout: idleTimeout) {
            await $0.once("welcome") { scope in log.write("session \(scope.name): welcome") }
        }
        table.withLock { $0 = sessions }
    }

    /// How many sessions are kept now.
    var count: Int { table.withLock { $0 }?.count ?? 0 }

    /// Whether `id` can name a session: 1 to 64 ASCII letters, digits, `-`, `_` or `.`.
    static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// Runs `body` with the scope of session `id`, begun and active and held until `body` returns, or with
    /// no session: for no id, once the sessions have ended, or if the session's scope could not begin. The
    /// refusal, if any, is what to answer instead: 400 for an invalid id, 503 when every session is in use.
    func withSession<R>(
        _ id: String?,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (_ session: Scope?, _ refusal: HTTPError?) async throws -> R
    ) async throws -> R {
        guard let id else { return try await body(nil, nil) }
        guard Self.isValidID(id) else {
            return try await body(
                nil,
                HTTPError(.badRequest, message: "X-Session: 1 to 64 letters, digits, '-', '_' or '.'")
            )
        }
        guard let sessions = table.withLock({ $0 }) else { return try await body(nil, nil) }
        var entered = false
        do {
            return try await sessions.withScope(id) { session in
                entered = true
                return try await body(session, nil)
            }
        } catch let error as KeyedScopesError where !entered {
            guard error.code == .full else { return try await body(nil, nil) }
            return try await body(nil, HTTPError(.serviceUnavailable, message: "\(error)"))
        }
    }

    /// Ends every session scope and opens no new one: for the host's termination. Returns how many ended.
    func endAll() async -> Int {
        guard let sessions = table.withLock({ $0 }) else { return 0 }
        return await sessions.endAll()
    }
}
