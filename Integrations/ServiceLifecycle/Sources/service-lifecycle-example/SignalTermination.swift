import LifecycleCore
import ServiceLifecycle
import UnixSignals

/// Moves the host to the background on SIGUSR1 and back to the foreground on SIGUSR2, as `HostRunner`'s
/// standard signal map does: `/health/ready` answers 503 in the background. Writes
/// `signal SIGUSR1: background` (or `foreground`), then what came of it. Ends at graceful shutdown.
struct BackgroundSignals: Service {
    let host: ApplicationHost
    let transcript: Transcript

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sigusr1, .sigusr2)
        try await cancelWhenGracefulShutdown {
            for await signal in signals {
                let background = signal == .sigusr1
                transcript.write("signal \(signal): \(background ? "background" : "foreground")")
                do throws(LifecycleError) {
                    if background { try await host.enterBackground() } else { try await host.enterForeground() }
                    transcript.write("signal \(signal): host \(host.state)")
                } catch {
                    transcript.write("signal \(signal): refused: \(error.code)")
                }
            }
        }
    }
}
