import ArgumentParser
import LifecycleArgumentParser
import LifecycleCore
import LifecycleProxy

// README: argument-parser-root
/// The shop's back office: every subcommand comes from a module, discovered.
@main
struct Shop: HostCommand {
    static let configuration = CommandConfiguration(
        abstract: "A shop's back office, one subcommand per task.",
        subcommands: ModuleManifest.discovered.commands  // each module's, in manifest order
    )

    static var manifest: ModuleManifest { .discovered }

    // A command-line tool does not run its command on a host whose launch failed.
    static func makeHost(launchOptions: LaunchOptions) throws -> ApplicationHost {
        let configuration = ApplicationHost.Configuration(launchFailurePolicy: .abort, terminateDeadline: .seconds(10))
        return try ApplicationHost(manifest: manifest, launchOptions: launchOptions, configuration: configuration)
    }
}
// README: end
