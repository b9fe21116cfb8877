import Foundation
import Hummingbird
import LifecycleCore
import LifecycleRouting

/// The HTTP face of the admin API: requests to `/admin/**` become intents opened by the host's router,
/// so the global interceptors (`AdminTokenInterceptor`, `BackgroundWriteGuard`) judge each request before
/// `AdminModule`'s handler runs.
///
/// The intent's URL is the request's path and query, with the token moved into the `token` query item:
/// `Authorization: Bearer <token>` if the request has it, else its own `?token=`. A route asked with another
/// method is 405 (with `Allow`) before any interceptor runs, and a path no route matches is 404, since the
/// router resolves the path first. What succeeds is the route's result as JSON, with 200; what fails is an
/// ``AdminFailure`` as JSON, with the status it maps to. Neither the answer nor the transcript shows the
/// token: the descriptions name the URL without it.
struct AdminEndpoint: Sendable {
    let host: ApplicationHost
    let transcript: Transcript

    /// The methods `/admin/**` takes: those of ``AdminMethod``, and the other usual ones, so that a route
    /// asked with the wrong one answers 405 rather than the server's plain 404.
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]

    /// Adds `/admin/**` to `router`, for each of ``methods``.
    func register(on router: Hummingbird.Router<BasicRequestContext>) {
        for method in Self.methods {
            router.on("admin/**", method: method) { request, _ in await handle(request) }
        }
    }

    /// Answers `request`, and writes `admin <METHOD> <path> <status>` to the transcript.
    func handle(_ request: Request) async -> Response {
        let response = await respond(to: request)
        transcript.write("admin \(request.method.rawValue) \(request.uri.path) \(response.status.code)")
        return response
    }

    private func respond(to request: Request) async -> Response {
        guard let router = host.router else {
            return Self.answer(
                AdminFailure(
                    status: .serviceUnavailable,
                    error: "noRouter",
                    description: "the host has no router: build it from a manifest with `withRouting()`"
                )
            )
        }
        let bearer = request.headers[.authorization].flatMap(Self.bearerToken)
        guard let (url, shown) = Self.intentURLs(path: request.uri.path, query: request.uri.query, bearer: bearer)
        else {
            return Self.answer(
                AdminFailure(status: .badRequest, error: "invalidURL", description: "the path is not a valid URL path")
            )
        }
        if let (served, _) = router.match(url) {
            guard let route = served.type as? any AdminRoute.Type else {
                return Self.answer(
                    AdminFailure(
                        status: .notFound,
                        error: "noRoute",
                        description: "\(shown.path) is not an admin route: \(served.name) is not served over HTTP"
                    )
                )
            }
            guard route.method.rawValue == request.method.rawValue else {
                return Self.answer(
                    AdminFailure(
                        status: .methodNotAllowed,
                        error: "methodNotAllowed",
                        description: "\(route.routeName) (\(shown.path)) answers \(route.method.rawValue), not "
                            + "\(request.method.rawValue)"
                    ),
                    headers: [.allow: route.method.rawValue]
                )
            }
        }
        do {
            let result = try await router.open(url: url)
            guard let encodable = result as? any Encodable else {
                return Self.answer(
                    AdminFailure(
                        status: .internalServerError,
                        error: "unencodable",
                        description: "the result of \(shown.path) is not Encodable"
                    )
                )
            }
            return Self.json(encodable, status: .ok)
        } catch {
            let failure = AdminFailure(error) {
                $0.replacingOccurrences(of: url.absoluteString, with: shown.absoluteString)
            }
            return Self.answer(failure)
        }
    }

    /// The token of `Authorization: Bearer <token>`, or `nil` for another scheme.
    static func bearerToken(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The URL the intent opens, with the token as its last query item (`bearer` if given, else the query's
    /// own), and the same URL without the token, for messages. `nil` if `path` and `query` make no URL.
    static func intentURLs(path: String, query: String?, bearer: String?) -> (url: URL, shown: URL)? {
        guard var components = URLComponents(string: path + (query.map { "?" + $0 } ?? "")) else { return nil }
        let items = components.percentEncodedQueryItems ?? []
        let isToken = { (item: URLQueryItem) in item.name.removingPercentEncoding == AdminTokenInterceptor.parameter }
        let token =
            bearer.flatMap { $0.addingPercentEncoding(withAllowedCharacters: unreserved) }
            ?? items.first(where: isToken)?.value
        let others = items.filter { !isToken($0) }
        components.percentEncodedQueryItems = others.isEmpty ? nil : others
        guard let shown = components.url else { return nil }
        if let token {
            components.percentEncodedQueryItems =
                others + [URLQueryItem(name: AdminTokenInterceptor.parameter, value: token)]
        }
        guard let url = components.url else { return nil }
        return (url, shown)
    }

    /// The characters a query value may hold unescaped: RFC 3986's unreserved set.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    /// `failure` as a JSON answer with its status; a 401 says how to authenticate.
    static func answer(_ failure: AdminFailure, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        if failure.status == 401 { headers[.wwwAuthenticate] = "Bearer realm=\"admin\"" }
        return json(failure, status: HTTPResponse.Status(code: failure.status), headers: headers)
    }

    /// `value` as a JSON answer with `status`.
    static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status,
        headers extra: HTTPFields = [:]
    ) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = extra
        headers[.contentType] = "application/json; charset=utf-8"
        guard let data = try? encoder.encode(value) else {
            return Response(status: .internalServerError, body: ResponseBody(byteBuffer: ByteBuffer(string: "\n")))
        }
        return Response(
            status: status,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data + Data("\n".utf8)))
        )
    }
}
