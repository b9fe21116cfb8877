import ServiceLifecycle

/// The HTTP server as a service that writes `server: stopped` once the server's `run()` returned: it has
/// stopped accepting connections and answered every request in flight. The process tests order it against
/// `readiness: draining` before it and the modules' shutdown after it.
struct TranscribedServer<Server: Service>: Service {
    let server: Server
    let transcript: Transcript

    func run() async throws {
        try await server.run()
        transcript.write("server: stopped")
    }
}
