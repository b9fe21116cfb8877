#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RoutePatternSyntax

/// An intent could not be opened: nothing matched it, its input was wrong, an interceptor refused or
/// misbehaved, or the route's handler failed. The description names the route, the interceptor or module
/// concerned, and the fix.
public struct RouteError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Sendable {
            case noRouter, noRoute, notServed, invalidPattern, invalidParameter, missingParameter, invalidInput
            case invalidPath
            case unknownOption, missingArgument, unexpectedArgument, rejected, decidedTwice, neverDecided
            case timedOut, loopLimit, handlerFailed, cancelled
        }
        let base: Base

        /// The host was not built from a manifest with routing (`ModuleManifest.withRouting()`), or is gone.
        public static let noRouter = Code(base: .noRouter)
        /// No route's pattern matches the URL, or no route has the command.
        public static let noRoute = Code(base: .noRoute)
        /// The URL's path has a segment that could name another place than it reads as: `.` or `..`, written
        /// so or percent-encoded, or an encoded `/` (`%2F`) next to nothing, `.` or `..`. Refused before any
        /// pattern is tried (`Docs/Routing.md`, "Paths from outside").
        public static let invalidPath = Code(base: .invalidPath)
        /// No module of the host serves the route type opened by value.
        public static let notServed = Code(base: .notServed)
        /// A pattern cannot match anything (see ``RoutePattern``).
        public static let invalidPattern = Code(base: .invalidPattern)
        /// A parameter's text is not a value of the type the route reads it as.
        public static let invalidParameter = Code(base: .invalidParameter)
        /// The route requires a parameter that the URL or command did not give.
        public static let missingParameter = Code(base: .missingParameter)
        /// The route's `init(parameters:)` threw something other than a ``RouteError``; ``underlying`` has it.
        public static let invalidInput = Code(base: .invalidInput)
        /// The command line has an option the command does not declare, or an option without its value,
        /// or a value for a flag.
        public static let unknownOption = Code(base: .unknownOption)
        /// The command line lacks a positional argument the command requires.
        public static let missingArgument = Code(base: .missingArgument)
        /// The command line has more positional arguments than the command declares.
        public static let unexpectedArgument = Code(base: .unexpectedArgument)
        /// An interceptor rejected the intent; ``underlying`` is its reason.
        public static let rejected = Code(base: .rejected)
        /// An interceptor decided twice; the first decision was not acted on.
        public static let decidedTwice = Code(base: .decidedTwice)
        /// An interceptor returned without deciding.
        public static let neverDecided = Code(base: .neverDecided)
        /// An interceptor did not decide within its budget; it was cancelled.
        public static let timedOut = Code(base: .timedOut)
        /// Switches, restarts or intents opened by handlers went deeper than the router's limits;
        /// ``chain`` shows the loop.
        public static let loopLimit = Code(base: .loopLimit)
        /// The route's handler threw; ``underlying`` has what.
        public static let handlerFailed = Code(base: .handlerFailed)
        /// The task that opened the intent was cancelled: before the route's handler ran, or the handler
        /// stopped on it (threw `CancellationError`).
        public static let cancelled = Code(base: .cancelled)

        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The intent's name: its route's, or a factory's, or the URL or command line that matched nothing.
    public let intent: String
    /// The interceptor concerned, for the interceptor errors.
    public let interceptor: String?
    /// The intents that led here, outermost first, each with how it was reached: a switch, a restart, or
    /// an intent opened by a route's handler. Empty for an intent opened directly.
    public internal(set) var chain: [String]
    /// What the interceptor rejected with, what the handler or the route's initializer threw, or the
    /// error of a switched intent.
    public let underlying: (any Error)?
    /// What went wrong and how to fix it.
    public let description: String
    /// Why the intent's parameters did not make a route, when they did not and its interceptors failed before
    /// that error was reached: with ``Code/loopLimit``, ``Code/decidedTwice``, ``Code/neverDecided`` or
    /// ``Code/timedOut``, the error keeps the code of the chain's failure (the interceptors judge an intent
    /// before its input) and this holds the parameters' error (``Code/missingArgument``,
    /// ``Code/invalidParameter``…), which ``description`` names too, so both problems can be fixed at once.
    /// `nil` otherwise, and always after a ``Code/rejected`` refusal: a guard's refusal says nothing about
    /// the input it refused.
    public var refusedInput: RouteError? { refusedInputs.first }
    /// ``refusedInput``, in an array, as a struct cannot hold an optional of itself.
    let refusedInputs: [RouteError]

    init(
        _ code: Code,
        intent: String,
        interceptor: String? = nil,
        chain: [String] = [],
        underlying: (any Error)? = nil,
        refusedInput: RouteError? = nil,
        description: String
    ) {
        self.code = code
        self.intent = intent
        self.interceptor = interceptor
        self.chain = chain
        self.underlying = underlying
        self.refusedInputs = refusedInput.map { [$0] } ?? []
        self.description = description
    }
}

// The errors, built where they are thrown.
extension RouteError {
    static func noRouter(_ intent: String) -> RouteError {
        RouteError(
            .noRouter,
            intent: intent,
            description: "Cannot open \(intent): this host has no router. Build it from `manifest.withRouting()` "
                + "(a generated manifest has it when a module serves routes), and keep the host alive while "
                + "intents are opened."
        )
    }

    /// `known`: the first patterns served, at most ten; `total`: how many there are.
    static func noRoute(url: URL, known: [String], total: Int) -> RouteError {
        RouteError(
            .noRoute,
            intent: url.absoluteString,
            description: "No route matches \(url.absoluteString). "
                + (known.isEmpty
                    ? "The host serves no route with a pattern."
                    : "The patterns served are: \(known.joined(separator: ", "))"
                        + (total > known.count
                            ? ", and \(total - known.count) more (`router.routes` lists them)." : "."))
        )
    }

    /// `input`: the URL's absolute string, or the path as given.
    static func invalidPath(_ input: String, _ refusal: PathRefusal) -> RouteError {
        let why =
            switch refusal.reason {
            case .dotSegment:
                "a `.` or `..` segment, which the router neither follows nor hands to a handler, so a route "
                    + "serving files cannot be climbed out of"
            case .encodedSlash:
                "an encoded `/` (`%2F`) next to nothing, `.` or `..`, which would read as a different path "
                    + "once decoded"
            }
        return RouteError(
            .invalidPath,
            intent: input,
            description: "Refused \(input): the segment `\(refusal.segment)` is \(why). Send the "
                + "path without it (resolve `..` on the client), or pass the text as a query item."
        )
    }

    static func noCommand(_ name: String, known: [String]) -> RouteError {
        RouteError(
            .noRoute,
            intent: name,
            description: "Unknown command `\(name)`. "
                + (known.isEmpty
                    ? "The host serves no command." : "The commands are: \(known.joined(separator: ", ")).")
                + " Pass --help to list them."
        )
    }

    static func notServed(_ route: String) -> RouteError {
        RouteError(
            .notServed,
            intent: route,
            description: "No module of this host serves \(route). Register a handler for it in a module's "
                + "`serveRoutes(_:)`, and make sure that module is in the manifest and enabled."
        )
    }

    static func invalidPattern(_ problem: RoutePatternSyntax.Problem, route: String?) -> RouteError {
        RouteError(
            .invalidPattern,
            intent: route ?? problem.pattern,
            description: (route.map { "\($0)'s " } ?? "The ") + "\(problem)."
        )
    }

    static func invalidParameter(_ name: String, value: String, type: String, route: String) -> RouteError {
        RouteError(
            .invalidParameter,
            intent: route,
            description: "\(route): the parameter `\(name)` is \"\(value)\", which does not parse as `\(type)`. "
                + "Pass a valid `\(type)`, or read the parameter as another type."
        )
    }

    static func missingParameter(_ name: String, route: String, given: [String]) -> RouteError {
        RouteError(
            .missingParameter,
            intent: route,
            description: "\(route) requires the parameter `\(name)`, which was not given "
                + (given.isEmpty ? "(none was)" : "(given: \(given.joined(separator: ", ")))")
                + ". Add it to the URL or command, or make the route read it with `get(_:as:)` and a default."
        )
    }

    static func invalidInput(_ route: String, _ error: any Error) -> RouteError {
        RouteError(
            .invalidInput,
            intent: route,
            underlying: error,
            description: "\(route) refused its parameters: \(error)"
        )
    }

    static func unknownOption(_ argument: String, command: RouteCommand, route: String) -> RouteError {
        RouteError(
            .unknownOption,
            intent: route,
            description: "`\(command.name)` has no option \(argument). Usage: \(command.usage)"
        )
    }

    static func unexpectedValue(option: String, command: RouteCommand, route: String) -> RouteError {
        RouteError(
            .unknownOption,
            intent: route,
            description: "`\(command.name)`: --\(option) is a flag and takes no value. Usage: \(command.usage)"
        )
    }

    static func missingValue(option: RouteCommand.Option, command: RouteCommand, route: String) -> RouteError {
        RouteError(
            .unknownOption,
            intent: route,
            description: "`\(command.name)`: --\(option.name) needs a value (\(option.value ?? "")). "
                + "Usage: \(command.usage)"
        )
    }

    static func missingArgument(_ name: String, command: RouteCommand, route: String) -> RouteError {
        RouteError(
            .missingArgument,
            intent: route,
            description: "`\(command.name)` needs the argument <\(name)>. Usage: \(command.usage)"
        )
    }

    static func unexpectedArgument(_ argument: String, command: RouteCommand, route: String) -> RouteError {
        RouteError(
            .unexpectedArgument,
            intent: route,
            description: "`\(command.name)` takes no argument \"\(argument)\". Usage: \(command.usage)"
        )
    }

    static func rejected(_ intent: String, by interceptor: String, _ reason: any Error) -> RouteError {
        RouteError(
            .rejected,
            intent: intent,
            interceptor: interceptor,
            underlying: reason,
            description: "\(interceptor) rejected \(intent): \(reason)"
        )
    }

    static func decidedTwice(_ intent: String, by interceptor: String, first: String, second: String) -> RouteError {
        RouteError(
            .decidedTwice,
            intent: intent,
            interceptor: interceptor,
            description: "\(interceptor) decided twice on \(intent): first \(first), then \(second). Nothing was "
                + "acted on. Call exactly one of continue(), switch(to:) and reject(_:), once."
        )
    }

    static func neverDecided(_ intent: String, by interceptor: String) -> RouteError {
        RouteError(
            .neverDecided,
            intent: intent,
            interceptor: interceptor,
            description: "\(interceptor) returned without deciding on \(intent). Call one of continue(), "
                + "switch(to:) and reject(_:) before `intercept` returns; await what the decision needs."
        )
    }

    static func timedOut(_ intent: String, by interceptor: String, budget: Duration) -> RouteError {
        RouteError(
            .timedOut,
            intent: intent,
            interceptor: interceptor,
            description: "\(interceptor) did not decide on \(intent) within \(budget), and was cancelled. Make "
                + "it decide sooner, or give it a larger `budget`."
        )
    }

    static func loopLimit(_ intent: String, chain: [String], limit: String) -> RouteError {
        RouteError(
            .loopLimit,
            intent: intent,
            chain: chain,
            description: "Opening \(intent) went past \(limit): \(chain.joined(separator: " → ")). An interceptor "
                + "or a handler keeps sending intents round a loop; make it decide `continue` once its "
                + "condition holds."
        )
    }

    static func handlerFailed(_ route: String, server: String, _ error: any Error) -> RouteError {
        RouteError(
            .handlerFailed,
            intent: route,
            underlying: error,
            description: "\(server)'s handler of \(route) threw: \(error)"
        )
    }

    static func cancelled(_ intent: String) -> RouteError {
        RouteError(
            .cancelled,
            intent: intent,
            description: "Opening \(intent) was cancelled: the task that opened it was cancelled, so its handler did "
                + "not run or stopped."
        )
    }

    /// The codes of a chain that failed on its own, whatever the intent: a loop or an interceptor that
    /// misbehaved. Such an error also names the parameters' error of its intent, if they had one.
    static let chainFaults: Set<Code> = [.loopLimit, .decidedTwice, .neverDecided, .timedOut]

    /// This error, which the interceptors' chain failed with, also naming `input`, what the intent's own
    /// parameters were refused for: the code stays the chain's, ``refusedInput`` is `input`.
    func adding(refusedInput input: RouteError) -> RouteError {
        guard Self.chainFaults.contains(code), refusedInput == nil else { return self }
        return RouteError(
            code,
            intent: intent,
            interceptor: interceptor,
            chain: chain,
            underlying: underlying,
            refusedInput: input,
            description: description + " Its input was refused too, and fails it once the chain is fixed: "
                + input.description
        )
    }

    /// This error, as the error of the switched intent that `intent` went through. A loop error already
    /// holds the whole chain.
    func switched(from intent: String, by interceptor: String) -> RouteError {
        guard code != .loopLimit else { return self }
        return RouteError(
            code,
            intent: self.intent,
            interceptor: self.interceptor,
            chain: [intent + " (switched by \(interceptor))"] + chain,
            underlying: underlying,
            refusedInput: refusedInput,
            description: description + " (while \(intent) was switched to it by \(interceptor))"
        )
    }
}
