import LifecycleCore
import LifecycleRouting

/// Refuses every intent opened from a URL or a command line that does not carry the admin token as its
/// `token` parameter: the HTTP server forwards `Authorization: Bearer <token>`, or the request's own
/// `?token=<token>` query item, as that parameter (`AdminEndpoint.swift`). Intents opened by value or by
/// factory come from the program's own code, and pass.
///
/// The token is `--admin-token <token>`, else the `ADMIN_TOKEN` environment variable, else
/// ``defaultToken``; an empty value counts as unset. It runs first (``priority``), so a caller without
/// the token learns nothing about the host's state from `BackgroundWriteGuard`.
struct AdminTokenInterceptor: RouteInterceptor {
    static let priority = 100

    /// The token when neither the option nor the environment variable gives one: for trying the example
    /// on a laptop, never for a server anyone else can reach.
    static let defaultToken = "example-admin-token"
    /// The command-line option that sets the token; it wins over ``environmentVariable``.
    static let option = "--admin-token"
    /// The environment variable that sets the token.
    static let environmentVariable = "ADMIN_TOKEN"
    /// The parameter the intent carries the token in.
    static let parameter = "token"

    /// Why the interceptor refused: `AdminFailure` answers ``missing`` with 401 and ``wrong`` with 403.
    enum Rejection: Error, CustomStringConvertible {
        case missing
        case wrong

        var description: String {
            switch self {
            case .missing:
                "no admin token: send `Authorization: Bearer <token>` or `?token=<token>`, with the token the "
                    + "server was started with (\(AdminTokenInterceptor.option) or \(environmentVariable))"
            case .wrong:
                "the admin token is not the one the server was started with (\(AdminTokenInterceptor.option) "
                    + "or \(environmentVariable))"
            }
        }
    }

    private let expected: [UInt8]

    init(context: LifecycleContext) {
        expected = Array(Self.expectedToken(in: context.launchOptions).token.utf8)
    }

    /// The token the host expects, and where it came from: the option, the environment variable, or the
    /// default.
    static func expectedToken(in options: LaunchOptions) -> (token: String, source: String) {
        if let token = options.argument(option), !token.isEmpty { return (token, option) }
        if let token = options.environment[environmentVariable], !token.isEmpty { return (token, environmentVariable) }
        return (defaultToken, "the default")
    }

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        switch intent.source {
        case .value, .factory:
            return decision.continue()
        case .url, .command:
            break
        }
        guard let given = intent.parameters?[Self.parameter], !given.isEmpty else {
            return decision.reject(Rejection.missing)
        }
        guard Self.same(Array(given.utf8), expected) else { return decision.reject(Rejection.wrong) }
        decision.continue()
    }

    /// Whether `given` equals `expected`, comparing every byte whatever the first difference, so the time
    /// taken does not tell how much of a guess was right.
    static func same(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
