public import ArgumentParser
public import LifecycleCore

/// A subcommand that runs inside a launched `ApplicationHost`: the host is built and launched, then
/// ``run(on:)`` runs, then the host terminates, in that order, whatever the command does.
///
/// Modules contribute hosted commands through ``CommandContributing``; a ``HostCommand`` root runs them.
/// The command's options, arguments, `--help` and completions are ArgumentParser's, as for any
/// `AsyncParsableCommand`.
///
/// ```swift
/// struct Stock: HostedCommand {
///     static let configuration = CommandConfiguration(abstract: "Lists what is in stock.")
///
///     @Flag(help: "Only the items that ran out.") var empty = false
///
///     func run(on host: ApplicationHost) async throws {
///         let shelf = try host.context.services.require((any Shelf).self)  // a service a module provides
///         for (item, count) in shelf.items() where !empty || count == 0 { print("\(item): \(count)") }
///     }
/// }
/// ```
///
/// A hosted command is `Sendable`: it runs in a task of its own, so that a `SIGINT` or `SIGTERM` can cancel it
/// before the host terminates. Its `@Option`, `@Flag` and `@Argument` properties are `Sendable` when their
/// values are.
public protocol HostedCommand: AsyncParsableCommand, Sendable {
    /// Runs the command on the launched host. Modules have received their launch events; they receive
    /// `willTerminate` once this returns or throws.
    ///
    /// Cancellation means a `SIGINT` or `SIGTERM` arrived (return soon: the host terminates once this
    /// returns), or the host terminated itself (a module posted `terminate`, or work failed past its policy:
    /// the modules have received `willTerminate` already). What it throws decides the exit code as ArgumentParser decides it
    /// (`1`, the code of a thrown `ExitCode`, `64` for a `ValidationError`), unless something the host
    /// reports comes first (Docs/Hosting.md, "With swift-argument-parser").
    mutating func run(on host: ApplicationHost) async throws

    /// Adds what the command's options mean for the modules to the host's launch options, before the host is
    /// built: per-host state under a `LaunchOptionKey`, never a global. Does nothing by default.
    func configureLaunch(_ options: inout LaunchOptions)
}

extension HostedCommand {
    public func configureLaunch(_ options: inout LaunchOptions) {}

    /// Throws ``CommandHostingError/Code/runWithoutHost``: a hosted command runs through a ``HostCommand``
    /// root, which launches the host first.
    public mutating func run() async throws {
        throw CommandHostingError(.runWithoutHost, command: Self._commandName)
    }
}

/// A module that contributes subcommands to the program's ``HostCommand`` root.
///
/// The root reads them from its manifest (``LifecycleCore/ModuleManifest/commands``), so a module linked into
/// the program and discovered by `ModuleDiscoveryPlugin` adds its subcommands without a list written by
/// hand. Adopting this protocol makes a type a module (it refines `LifecycleModule`), so the plugin discovers
/// it like any other.
public protocol CommandContributing: LifecycleModule {
    /// The subcommands this module contributes, in the order `--help` lists them.
    static var commands: [any HostedCommand.Type] { get }
}

extension ModuleManifest {
    /// The subcommands the manifest's modules contribute (``CommandContributing``), in manifest order: what a
    /// ``HostCommand`` root lists in its `CommandConfiguration(subcommands:)`.
    ///
    /// Two modules that contribute the same command name are refused before parsing, by
    /// ``HostCommand/main()``, with a ``CommandHostingError`` that names both.
    public var commands: [any ParsableCommand.Type] {
        contributions.map(\.command)
    }

    /// Each contributed command with the module that contributes it.
    var contributions: [(module: String, command: any HostedCommand.Type)] {
        modules.flatMap { module -> [(module: String, command: any HostedCommand.Type)] in
            guard let contributing = module as? any CommandContributing.Type else { return [] }
            return contributing.commands.map { (module.moduleName, $0) }
        }
    }

    /// Refuses two contributed commands with one name: ArgumentParser would take the first and hide the other.
    func checkCommandNames() throws(CommandHostingError) {
        var seen: [String: String] = [:]
        for (module, command) in contributions {
            let name = command._commandName
            if let first = seen[name] {
                throw CommandHostingError(.duplicateCommand, command: name, modules: [first, module])
            }
            seen[name] = module
        }
    }
}

/// The launch option a hosted command's host is built with: the command's name, so a module can tell
/// which command the program runs (and, for example, skip a warm-up the command does not need).
public enum HostedCommandName: LaunchOptionKey {
    /// `nil` when the host was not built for a hosted command.
    public static let defaultValue: String? = nil
}
