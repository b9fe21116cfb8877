import Hummingbird
import LifecycleCore
import LifecycleRouting
import LifecycleServices

/// A failed admin request as HTTP: the status a ``RouteError`` maps to, and the JSON body that says why.
///
/// | what failed | status |
/// |---|---|
/// | no route matches the path (`noRoute`), or the store has no such item | 404 |
/// | no token (`AdminTokenInterceptor`) | 401, with `WWW-Authenticate: Bearer` |
/// | a wrong token (`AdminTokenInterceptor`), or another interceptor's refusal | 403 |
/// | a write while the host is in the background or terminating (`BackgroundWriteGuard`) | 503 |
/// | a parameter of the wrong type, a missing one, or one the route refuses | 400 |
/// | registering the probe module when it is registered, removing it when it is not | 409 |
/// | a path with a `.` or `..` segment, raw or percent-encoded, or an encoded `/` beside one (`invalidPath`) | 400 |
/// | the store is closed, the host is gone or terminating, an interceptor timed out, the request was cancelled | 503 |
/// | anything else: a handler's own failure, an interceptor that misbehaved | 500 |
struct AdminFailure: Encodable, Sendable {
    /// The status, also in the body.
    let status: Int
    /// The ``RouteError/Code``, such as `rejected`.
    let error: String
    /// The interceptor concerned, for an interceptor's refusal or misbehaviour.
    let interceptor: String?
    /// What went wrong, and how to fix it: the router's description.
    let description: String

    /// The failure `error` is, its description passed through `redact` (which takes the token out).
    init(_ error: RouteError, redact: (String) -> String = { $0 }) {
        status = Int(Self.status(for: error).code)
        self.error = error.code.description
        interceptor = error.interceptor
        description = redact(error.description)
    }

    /// A failure the endpoint finds before the router: a path that is no URL, or a method the route does not
    /// answer.
    init(status: HTTPResponse.Status, error: String, description: String) {
        self.status = Int(status.code)
        self.error = error
        interceptor = nil
        self.description = description
    }

    /// The status `error` maps to (the table above).
    static func status(for error: RouteError) -> HTTPResponse.Status {
        switch error.code {
        case .noRoute:
            return .notFound
        case .rejected:
            switch error.underlying {
            case let rejection as AdminTokenInterceptor.Rejection:
                return rejection == .missing ? .unauthorized : .forbidden
            case is BackgroundWriteGuard.HostNotAcceptingWrites:
                return .serviceUnavailable
            default:
                return .forbidden
            }
        case .invalidParameter, .missingParameter, .invalidInput, .invalidPath:
            return .badRequest
        case .handlerFailed:
            switch error.underlying {
            case is ItemNotFound:
                return .notFound
            case is StoreClosed, is ServiceError, is HostGone:
                return .serviceUnavailable
            case let error as LifecycleError:
                // The probe is registered already, or is not: the request conflicts with the host's modules.
                // Anything else (the host is terminating) is the host's state: try again later.
                switch error.code {
                case .registrationFailed, .removalFailed: return .conflict
                default: return .serviceUnavailable
                }
            default:
                return .internalServerError
            }
        case .noRouter, .timedOut, .cancelled:
            return .serviceUnavailable
        default:
            return .internalServerError
        }
    }
}
