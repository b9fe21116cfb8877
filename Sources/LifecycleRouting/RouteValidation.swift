import LifecycleProxy
import RoutePatternSyntax

/// The checks a host's routes pass before anything is created, and again when a server is registered at
/// run time: every pattern can match, every command can be typed, and no two routes compete for one input.
struct RouteValidation {
    /// Each server's name and the routes it registers, in manifest order.
    let servers: [(name: String, routes: [any Route.Type])]

    func check() throws(ManifestError) {
        var invalid: [(module: String, problem: String)] = []
        var duplicates: [(modules: [String], problem: String)] = []
        var servedBy: [ObjectIdentifier: String] = [:]
        var shapes: [String: (route: String, pattern: String, server: String)] = [:]
        var commands: [String: (route: String, server: String)] = [:]
        var defaultCommand: (route: String, server: String)?

        for (server, routes) in servers {
            for route in routes {
                let name = route.routeName
                if let other = servedBy[ObjectIdentifier(route)] {
                    duplicates.append(
                        (
                            [other, server],
                            other == server
                                ? "`\(server)` registers \(name) twice: keep one handler"
                                : "\(name) is served by both `\(other)` and `\(server)`: a route has one server; "
                                    + "remove one registration"
                        )
                    )
                    continue
                }
                servedBy[ObjectIdentifier(route)] = server
                if let pattern = route.pattern {
                    switch pattern.parsed {
                    case .failure(let problem):
                        invalid.append((server, "\(name)'s \(problem)"))
                    case .success(let syntax):
                        if let other = shapes[syntax.shape] {
                            duplicates.append(
                                (
                                    [other.server, server],
                                    "\(other.route) (\"\(other.pattern)\", served by `\(other.server)`) and \(name) "
                                        + "(\"\(pattern.text)\", served by `\(server)`) match the same inputs: change "
                                        + "one pattern, or serve both through one route"
                                )
                            )
                        } else {
                            shapes[syntax.shape] = (name, pattern.text, server)
                        }
                    }
                }
                if let command = route.command {
                    if let problem = Self.problem(with: command) {
                        invalid.append((server, "\(name)'s command \(problem)"))
                    }
                    if let other = commands[command.name] {
                        duplicates.append(
                            (
                                [other.server, server],
                                "\(other.route) and \(name) both declare the command `\(command.name)`: rename one"
                            )
                        )
                    } else {
                        commands[command.name] = (name, server)
                    }
                    if command.isDefault {
                        if let other = defaultCommand {
                            duplicates.append(
                                (
                                    [other.server, server],
                                    "\(other.route) and \(name) are both the default command: make one the default"
                                )
                            )
                        } else {
                            defaultCommand = (name, server)
                        }
                    }
                }
            }
        }
        if !invalid.isEmpty {
            throw ManifestError(
                code: .invalidRoute,
                modules: invalid.map(\.module),
                description: invalid.map(\.problem).joined(separator: "; ") + ". Nothing was created."
            )
        }
        if !duplicates.isEmpty {
            throw ManifestError(
                code: .duplicateRoute,
                modules: duplicates.flatMap(\.modules),
                description: duplicates.map(\.problem).joined(separator: "; ") + ". Nothing was created."
            )
        }
    }

    /// What is wrong with `command`, if anything.
    static func problem(with command: RouteCommand) -> String? {
        func isWord(_ text: String) -> Bool {
            guard let first = text.unicodeScalars.first, first != "-" else { return false }
            return text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
        }
        guard isWord(command.name) else {
            return "`\(command.name)` is not a word: use letters, digits, `-` and `_`, not starting with `-`"
        }
        var names: Set<String> = []
        for option in command.options {
            guard isWord(option.name) else {
                return "`\(command.name)` has an option `\(option.name)` that is not a word: write it without the "
                    + "leading `--`, in letters, digits, `-` and `_`"
            }
            guard option.name != "help" else {
                return "`\(command.name)` declares `--help`, which the router answers itself: remove it"
            }
            guard names.insert(option.name).inserted else {
                return "`\(command.name)` declares `\(option.name)` twice: give each option and argument its own name"
            }
        }
        var optional = false
        for argument in command.arguments {
            guard names.insert(argument.name).inserted else {
                return "`\(command.name)` declares `\(argument.name)` twice: give each option and argument its own name"
            }
            if optional && !argument.isOptional {
                return "`\(command.name)` has the required argument <\(argument.name)> after an optional one: "
                    + "put optional arguments last"
            }
            optional = optional || argument.isOptional
        }
        return nil
    }
}
