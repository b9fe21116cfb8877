import LifecycleScopes
import Synchronization

/// The example server's session scopes, one per session id (the `X-Session` header of
/// ``RequestScopeMiddleware``). A session's first request makes its scope, with a once-action that writes
/// `session <id>: welcome`, then begins and activates it; its requests' scopes are nested in it.
/// `SessionModule` ends them all when the host terminates.
///
/// Concurrent first requests of one session share one opening: the first makes it, the others wait for
/// it, so the session begins once and welcomes once. Sessions last until the host terminates; a real
/// server would also end the idle ones.
final class SessionScopes: Sendable {
    private struct State {
        /// Each session's opening: a task that makes, begins and activates its scope.
        var sessions: [String: Task<Scope?, Never>] = [:]
        /// Set once the sessions have ended: no new one opens.
        var closed = false
    }

    private let state = Mutex(State())
    /// Where the welcome lines go.
    let transcript: Transcript

    /// No sessions yet; the welcome lines go to `transcript`.
    init(transcript: Transcript) {
        self.transcript = transcript
    }

    /// Whether `id` can name a session: 1 to 64 ASCII letters, digits, `-`, `_` or `.`.
    static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// The scope of session `id`, begun and active: made in `scopes` on the session's first call, which
    /// the others wait for. `nil` once ``endAll()`` has run, or if the scope could not begin or activate.
    func session(_ id: String, in scopes: ScopeRegistry) async -> Scope? {
        let opening: Task<Scope?, Never>? = state.withLock { state in
            if state.closed { return nil }
            if let opening = state.sessions[id] { return opening }
            let opening = Task { [transcript] in await Self.open(id, in: scopes, transcript: transcript) }
            state.sessions[id] = opening
            return opening
        }
        return await opening?.value
    }

    /// Makes the scope of session `id`, adopts the welcome once-action, then begins and activates it.
    private static func open(_ id: String, in scopes: ScopeRegistry, transcript: Transcript) async -> Scope? {
        let session = scopes.scope(.session, id, parent: nil)
        await session.once("welcome") { scope in
            transcript.write("session \(scope.name): welcome")
        }
        do {
            try await session.begin()
            try await session.activate()
            return session
        } catch {
            transcript.write("session \(id): not opened: \(error)")
            return nil
        }
    }

    /// Ends every session scope, in the order they were made, and opens no new one: for the host's
    /// termination. Returns how many ended.
    func endAll() async -> Int {
        let openings = state.withLock { state in
            state.closed = true
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        var sessions: [Scope] = []
        for opening in openings {
            if let session = await opening.value { sessions.append(session) }
        }
        var ended = 0
        for session in sessions.sorted(by: { $0.id < $1.id }) {
            do {
                try await session.end()
                ended += 1
            } catch {
                transcript.write("session \(session.name): end: \(error)")
            }
        }
        return ended
    }
}
