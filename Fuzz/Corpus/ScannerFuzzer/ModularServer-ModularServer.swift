import Foundation
import LifecycleCore
import LifecycleHosting
import LifecycleProxy

/// The server's process. It builds the host from the modules the discovery plugin found, answers the
/// lines of standard input on standard output, and runs under `HostRunner`: SIGTERM or Ctrl-C terminates
/// it through the lifecycle, and its exit code says how that went.
@main
struct ModularServer {
    static func main() async {
        let log = ServerLog { line in FileHandle.standardError.write(Data("\(line)\n".utf8)) }
        var options = LaunchOptions.current
        options[ServerLogKey.self] = log
        do {
            let host = try ApplicationHost(
                manifest: .discovered,
                delegate: ServerDelegate(log: log),
                launchOptions: options
            )
            let server = LineServer(host: host)
            Task {
                await server.serve(StandardInput.lines()) { response in
                    FileHandle.standardOutput.write(Data("\(response)\n".utf8))
                }
            }
            let outcome = await HostRunner(host: host).run()  // launch, serve, terminate on SIGTERM or Ctrl-C
            exit(outcome.code)  // 0 clean; Docs/Hosting.md lists the others
        } catch {
            log.write("server: \(error)")  // a manifest that cannot make a host, and what to fix
            exit(64)
        }
    }
}
