import Foundation
import LifecycleCore
import LifecycleHosting
import LifecycleProxy

@main
struct ModularServer {
    static func main() async {
        do {
            let host = try ApplicationHost(
                manifest: .discovered,
            )
            let outcome = await HostRunner(host: host).run()  // launch, serve, terminate on SIGTERM or Ctrl-C
            exit(outcome.code)  // 0 clean; Docs/Hosting.md lists the others
        } catch {
            exit(64)
        }
    }
}
