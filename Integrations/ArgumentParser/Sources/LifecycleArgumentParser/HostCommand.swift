public import ArgumentParser
public import LifecycleCore
@_spi(Integrations) public import LifecycleHosting
import LifecycleProxy

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The root command of a program whose modules contribute subcommands: ArgumentParser parses the command
/// line, and a ``HostedCommand`` runs inside a launched host.
///
/// ```swift
/// @main
/// struct Shop: HostCommand {
///     static let configuration = CommandConfiguration(
///         abstract: "A shop's back office, one subcommand per task.",
///         subcommands: ModuleManifest.discovered.commands  // each module's, discovered
///     )
///     static var manifest: ModuleManifest { .discovered }
/// }
/// ```
///
/// ``main()`` parses with ArgumentParser (`--help`, usage errors and completion scripts are its own), then
/// runs a hosted subcommand in a host built by ``makeHost(launchOptions:)``: launch, the command, terminate,
/// in that order. `SIGINT` and `SIGTERM` cancel the command, and the host terminates before the process
/// exits `128 + n`; a second one cuts termination short. While the host lives, the other signals of
/// ``signals`` do what they do under `HostRunner` (by default `SIGHUP` reloads, `SIGUSR1` and `SIGUSR2` move
/// the host to the background and back), through `SignalRequests`, so a long-running command is not killed
/// by a `SIGHUP`. Any other subcommand runs as ArgumentParser runs it, with no host. The exit codes are one
/// table, ``HostedCommandExit``.
public protocol HostCommand: AsyncParsableCommand {
    /// The modules the hosted commands' host is built from: usually `.discovered`.
    static var manifest: ModuleManifest { get }

    /// Builds the host a hosted command runs in, once per run, after parsing. The default is
    /// `ApplicationHost(manifest: manifest, launchOptions: launchOptions)`; a program that configures its host
    /// (a `terminateDeadline`, a failure policy) implements this instead.
    ///
    /// `launchOptions` holds the process's arguments and environment, the command's name under
    /// ``HostedCommandName``, and what the command added (``HostedCommand/configureLaunch(_:)``).
    static func makeHost(launchOptions: LaunchOptions) throws -> ApplicationHost

    /// The signals a hosted command's host handles besides `SIGINT` and `SIGTERM`, which stay the command's
    /// (they cancel it): the map's reload, background, foreground, memory-warning and ignore entries, from
    /// before launch until the host terminated, reported on standard error. A terminating action in the map,
    /// and any entry for `SIGINT` or `SIGTERM`, is left out. The default is `SignalMap.standard`; `nil`: none,
    /// and the other signals keep their default effect.
    static var signals: SignalMap? { get }
}

extension HostCommand {
    public static func makeHost(launchOptions: LaunchOptions) throws -> ApplicationHost {
        try ApplicationHost(manifest: manifest, launchOptions: launchOptions)
    }

    /// `SignalMap.standard`: `SIGHUP` reloads, `SIGUSR1` and `SIGUSR2` move the host to the background and
    /// back.
    public static var signals: SignalMap? { .standard }

    /// Parses the process's command line, runs the command, and exits with the code ``HostedCommandExit``
    /// documents. `@main` calls it.
    public static func main() async {
        await runCommandLine(nil)
    }

    /// Parses `arguments` (the process's, without the program name, when `nil`), runs the command, and exits.
    public static func main(_ arguments: [String]?) async {
        await runCommandLine(arguments)
    }

    private static func runCommandLine(_ arguments: [String]?) async -> Never {
        do {
            try manifest.checkCommandNames()
        } catch {
            printToStandardError("\(_commandName): \(error)")
            exitProcess(EXIT_FAILURE)
        }
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(arguments)
        } catch {
            exit(withError: error)  // help, version, completion scripts: 0; usage errors: 64
        }
        guard let hosted = command as? any HostedCommand else {
            do {
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
                exit(withError: nil)
            } catch {
                exit(withError: error)
            }
        }
        let outcome = await runHosted(hosted)
        switch outcome.reason {
        case .commandFailed:
            exit(withError: outcome.error)  // ArgumentParser's message and code for what the command threw
        case .completed:
            exit(withError: nil)
        default:
            printToStandardError("\(_commandName): \(outcome)")
            exitProcess(outcome.code)
        }
    }

    /// Builds the host, then runs `command` in it under the process's `SIGINT` and `SIGTERM`: launch, the
    /// command, terminate, with the other signals of ``signals`` handled meanwhile. Returns how it ended;
    /// exits nothing.
    static func runHosted(_ command: any HostedCommand) async -> HostedCommandExit {
        var options = LaunchOptions.current
        options[HostedCommandName.self] = type(of: command)._commandName
        command.configureLaunch(&options)
        let host: ApplicationHost
        do {
            host = try makeHost(launchOptions: options)
        } catch {
            return HostedCommandExit(.hostNotBuilt, error: error)
        }
        // SIGINT and SIGTERM are the session's alone: one owner per signal.
        let requests = Self.signals.map { map in
            SignalRequests(host: host, map: SignalMap(map.actions.filter { $0.key != .sigint && $0.key != .sigterm })) {
                printToStandardError("lifecycle: \($0)")
            }
        }
        let handling = await requests?.start()
        let signals = ProcessSignals([.sigint, .sigterm])
        await signals.waitUntilWatching()
        let session = CommandSession(host: host) { exitCode(for: $0).rawValue }
        let exit = await session.run(command, signals: signals.stream)
        signals.remove()
        await handling?.stop()
        return exit
    }
}

/// Ends the process with `code`: the C library's `exit`, which `ParsableCommand.exit(withError:)` hides inside a
/// command type.
func exitProcess(_ code: Int32) -> Never { exit(code) }

/// Writes `text` and a newline to standard error, unbuffered.
func printToStandardError(_ text: String) { writeLine(text, to: 2) }

/// Writes `line` and a newline to `descriptor` in as few `write` calls as it takes.
func writeLine(_ line: String, to descriptor: Int32) {
    var line = line + "\n"
    line.withUTF8 { bytes in
        var remaining = UnsafeRawBufferPointer(bytes)
        while !remaining.isEmpty {
            let written = write(descriptor, remaining.baseAddress, remaining.count)
            guard written > 0 else { return }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }
}
