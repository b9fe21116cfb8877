/// A program's commands and modules that do not fit together: what went wrong, whom it concerns, and the fix.
public struct CommandHostingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. More codes may come: switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case runWithoutHost
            case duplicateCommand
        }

        private let base: Base

        /// A ``HostedCommand``'s plain `run()` was called: its root is not a ``HostCommand``, so nothing
        /// launched a host for it.
        public static let runWithoutHost = Code(base: .runWithoutHost)
        /// Two modules contribute commands with the same name.
        public static let duplicateCommand = Code(base: .duplicateCommand)

        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The command's name.
    public let command: String
    /// The modules concerned, module-qualified: both contributors of a ``Code/duplicateCommand``.
    public let modules: [String]

    init(_ code: Code, command: String, modules: [String] = []) {
        self.code = code
        self.command = command
        self.modules = modules
    }

    public var description: String {
        switch code {
        case .runWithoutHost:
            return "command `\(command)` is a HostedCommand, but it ran without a host: its root command is not a "
                + "HostCommand, so nothing launched one. Make the root conform to HostCommand (LifecycleArgumentParser)"
        default:
            return "modules \(modules.map { "`\($0)`" }.joined(separator: " and ")) both contribute command "
                + "`\(command)`: ArgumentParser would run the first and hide the other. Rename one with "
                + "CommandConfiguration(commandName:)"
        }
    }
}
