extension Router {
    /// The help a CLI host prints: its commands, from the command routes its modules serve, or one
    /// command's usage, arguments and options.
    ///
    /// - Parameters:
    ///   - program: The program's name, as typed.
    ///   - command: A command's name, for that command's help; `nil` for the list of commands.
    /// - Returns: The text, or `nil` if `command` names no command.
    public func help(program: String, command: String? = nil) -> String? {
        let commands = routes.compactMap { route in route.command.map { (command: $0, route: route) } }
            .sorted { $0.command.name < $1.command.name }
        guard let name = command else {
            let width = commands.map(\.command.name.count).max() ?? 0
            var lines = ["usage: \(program) <command> [options]", "", "Commands:"]
            for (command, _) in commands {
                let padding = String(repeating: " ", count: width - command.name.count)
                lines.append("  \(command.name)\(padding)  \(command.summary)\(command.isDefault ? " (default)" : "")")
            }
            lines += ["", "Run `\(program) <command> --help` for a command's arguments and options."]
            return lines.joined(separator: "\n")
        }
        guard let (command, route) = commands.first(where: { $0.command.name == name }) else { return nil }
        var lines = ["usage: \(program) \(command.usage)", "", command.summary]
        let rows =
            command.arguments.map { ("<\($0.name)>", $0.summary + ($0.isOptional ? " (optional)" : "")) }
            + command.options.map { ("--\($0.name)" + ($0.value.map { " \($0)" } ?? ""), $0.summary) }
        if !rows.isEmpty {
            let width = rows.map(\.0.count).max() ?? 0
            lines.append("")
            for (label, summary) in rows {
                lines.append("  \(label)\(String(repeating: " ", count: width - label.count))  \(summary)")
            }
        }
        lines += ["", "Served by \(route.server) (\(route.name))."]
        return lines.joined(separator: "\n")
    }

    /// The help `arguments` ask for, if they ask: `--help` or `-h` alone, or `help`, for the list of
    /// commands; `<command> --help` (or `-h`) for that command's. `nil` if they do not ask for help.
    public func help(for arguments: [String], program: String) -> String? {
        let asks = { (argument: String) in argument == "--help" || argument == "-h" }
        let options = arguments.prefix { $0 != "--" }
        guard let first = arguments.first else { return nil }
        if asks(first) || (first == "help" && arguments.count == 1) { return help(program: program) }
        if first == "help", arguments.count == 2 { return help(program: program, command: arguments[1]) }
        guard options.contains(where: asks), !first.hasPrefix("-") else { return nil }
        return help(program: program, command: first)
            ?? help(program: program).map { "Unknown command `\(first)`.\n\n" + $0 }
    }
}
