import ExampleFeatures
import Foundation
import LifecycleVapor
import Logging
import Vapor

/// The example server: `vapor-example serve --port 8080`.
///
/// Vapor owns the signals: at SIGTERM or SIGINT its `serve` command returns from `execute()`, and
/// `asyncShutdown()` runs the host's shutdown: readiness 503, the server stops accepting and answers what is
/// in flight, then the modules' work stops and they receive `willTerminate`.
///
/// Exit codes: 0 after a clean shutdown; 1 when configuration or launch failed (`launchAborted`, a port in
/// use, an unknown option), or when a `willTerminate` hook threw.
@main
enum Entrypoint {
    static func main() async throws {
        var environment = try Environment.detect()
        let transcript = Transcript()
        // Vapor's console logger, at `--log` or `LOG_LEVEL` (`info` in development by default); the
        // per-request lines (RequestLogAction, at .debug) go to the transcript when that level lets them.
        try LoggingSystem.bootstrap(from: &environment) { level in
            let console = Terminal()
            return { label in
                guard label != RequestLogAction.label else {
                    return TranscriptLogHandler(transcript: transcript, logLevel: level)
                }
                return ConsoleLogger(label: label, console: console, level: level)
            }
        }
        let app = try await Application.make(environment)
        var modules: VaporModuleHost?
        do {
            try configure(app, transcript: transcript)
            modules = app.modules
            try await app.execute()
        } catch {
            app.logger.report(error: error)
            try? await app.asyncShutdown()
            transcript.write("exit: failed")
            exit(1)
        }
        try await app.asyncShutdown()
        let clean = modules?.terminationError == nil
        transcript.write(clean ? "exit: clean" : "exit: termination failed")
        exit(clean ? 0 : 1)
    }
}
