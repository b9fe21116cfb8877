/// How a CLI host reaches a route: a subcommand with its positional arguments and options. The router
/// parses the command line into ``RouteParameters`` with it, refuses what it does not declare, and
/// writes `--help` from it (``Router/help(program:command:)``).
///
/// ```swift
/// static let command: RouteCommand? = RouteCommand(
///     "report",
///     summary: "Prints the report of one day",
///     arguments: [.init("day", summary: "the day, as a number")],
///     options: [.init("format", value: "text|json", summary: "the output format; default text")]
/// )
/// ```
///
/// `lifecycle-demo report 3 --format json` opens that route with `day=3` and `format=json`. An option is
/// written `--name value` or `--name=value`; a flag (an option without a value) is `--name`.
public struct RouteCommand: Sendable, Hashable {
    /// A positional argument, named as the parameter it fills.
    public struct Argument: Sendable, Hashable {
        /// The parameter it fills, and its name in usage lines: `<day>`.
        public let name: String
        /// One line for `--help`.
        public let summary: String
        /// Whether the command line may leave it out.
        public let isOptional: Bool

        /// An argument filling the parameter `name`; an optional one may be left out, and must come last.
        public init(_ name: String, summary: String, optional: Bool = false) {
            self.name = name
            self.summary = summary
            self.isOptional = optional
        }
    }

    /// An option, `--name value`, or a flag, `--name`, named as the parameter it fills.
    public struct Option: Sendable, Hashable {
        /// The parameter it fills, written without the leading `--`.
        public let name: String
        /// How help names its value, as in `--format text|json`; `nil` for a flag.
        public let value: String?
        /// One line for `--help`.
        public let summary: String

        /// An option `--name value`, or, without `value`, a flag `--name`.
        public init(_ name: String, value: String? = nil, summary: String) {
            self.name = name
            self.value = value
            self.summary = summary
        }
    }

    /// The subcommand, as typed: `serve`.
    public let name: String
    /// One line for `--help`.
    public let summary: String
    /// The positional arguments, in order.
    public let arguments: [Argument]
    /// The options and flags, in any order on the command line.
    public let options: [Option]
    /// Whether this command runs when the command line names none. At most one route may say so.
    public let isDefault: Bool

    /// A command named `name`. The host refuses malformed declarations when it is built
    /// (`ManifestError.Code.invalidRoute`): a name that is not a word, a repeated name, `--help`, or a required
    /// argument after an optional one.
    public init(
        _ name: String,
        summary: String,
        arguments: [Argument] = [],
        options: [Option] = [],
        isDefault: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.isDefault = isDefault
    }

    /// The usage line: `serve [--signals MAP] <day>`.
    public var usage: String {
        ([name]
            + options.map { "[--\($0.name)\($0.value.map { " \($0)" } ?? "")]" }
            + arguments.map { $0.isOptional ? "[\($0.name)]" : "<\($0.name)>" })
            .joined(separator: " ")
    }

    /// The parameters `arguments` give this command, or the error that says which one is wrong.
    func parameters(route: String, _ arguments: ArraySlice<String>) throws(RouteError) -> RouteParameters {
        var parameters = RouteParameters(route: route)
        var positional: [String] = []
        var index = arguments.startIndex
        var onlyPositional = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard !onlyPositional, argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard let option = options.first(where: { $0.name == name }) else {
                throw .unknownOption(argument, command: self, route: route)
            }
            if let equals = body.firstIndex(of: "=") {
                guard option.value != nil else { throw .unexpectedValue(option: name, command: self, route: route) }
                parameters.append(name, String(body[body.index(after: equals)...]))
            } else if option.value != nil {
                guard index < arguments.endIndex else {
                    throw .missingValue(option: option, command: self, route: route)
                }
                parameters.append(name, arguments[index])
                index += 1
            } else {
                parameters.append(name, "")
            }
        }
        guard positional.count <= self.arguments.count else {
            throw .unexpectedArgument(positional[self.arguments.count], command: self, route: route)
        }
        for (argument, value) in zip(self.arguments, positional) { parameters.append(argument.name, value) }
        if let missing = self.arguments.dropFirst(positional.count).first(where: { !$0.isOptional }) {
            throw .missingArgument(missing.name, command: self, route: route)
        }
        return parameters
    }
}
