import Foundation
import LifecycleCore
import LifecycleHosting
import LifecycleProxy

// README: runner-main
@main
struct Server {
    static func main() async {
        do {
            let host = try ApplicationHost(manifest: .discovered)
            // The signal map is configuration: operators can change it without a rebuild.
            let text = ProcessInfo.processInfo.environment["LIFECYCLE_SIGNALS"]
            let signals = try text.map(SignalMap.init(parsing:)) ?? .standard
            let runner = HostRunner(host: host, configuration: HostRunner.Configuration(signals: signals))
            let outcome = await runner.run()  // launch, serve, terminate on SIGTERM or Ctrl-C
            exit(outcome.code)  // 0 clean, 1 terminate failed, 3 launch failed, 4 deadline exceeded, 130 Ctrl-C twice
        } catch let error as SignalMapError {
            print("server: \(error)")  // LIFECYCLE_SIGNALS cannot be read, and what to fix: a usage error
            exit(64)
        } catch {
            print("server: \(error)")  // the host could not be built (a ManifestError), and what to fix
            exit(1)
        }
    }
}
// README: end
