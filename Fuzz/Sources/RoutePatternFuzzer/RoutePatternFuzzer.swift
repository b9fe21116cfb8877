import FuzzerEntry
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Route patterns (`RoutePattern.init(_:)`), as written in a route, and registered in a host's router.
///
/// Oracle: parsing is deterministic (equal, same hash, same parameters); `validate()` either passes or throws
/// `invalidPattern`; a host whose one route has the pattern is built exactly when it validates, and refuses it
/// with `ManifestError.Code.invalidRoute` otherwise; and a valid pattern of plain characters matches the URL made
/// from it, with each parameter captured.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let pattern = RoutePattern(text)
    let again = RoutePattern(text)
    precondition(pattern == again && pattern.hashValue == again.hashValue, "\(text.debugDescription) parsed twice")
    precondition(pattern.description == text && pattern.parameterNames == again.parameterNames)

    let valid: Bool
    do {
        try pattern.validate()
        valid = true
    } catch {
        precondition(error.code == .invalidPattern, "\(text.debugDescription): \(error.code)")
        precondition(pattern.parameterNames.isEmpty && pattern.scheme == nil)
        valid = false
    }

    current.withLock { $0 = pattern }
    let host: ApplicationHost
    do {
        host = try ApplicationHost(manifest: ModuleManifest([FuzzedServer.self]).withRouting())
    } catch {
        precondition(!valid, "\(text.debugDescription) validates, but the host refused it: \(error)")
        precondition(error.code == .invalidRoute, "\(text.debugDescription): \(error.code)")
        return 0
    }
    precondition(valid, "\(text.debugDescription) does not validate, but a host was built with it")
    guard let router = host.router else { preconditionFailure("a host with routing has no router") }
    precondition(router.routes.map(\.pattern) == [pattern])

    guard let (url, expected, rest) = sampleURL(for: text), let found = router.match(url) else {
        precondition(sampleURL(for: text) == nil, "\(text.debugDescription) does not match its own sample URL")
        return 0
    }
    for (name, value) in expected {
        precondition(found.parameters[name] == value, "\(text.debugDescription) on \(url): \(found.parameters)")
    }
    precondition(found.parameters.rest == rest, "\(text.debugDescription) on \(url): \(found.parameters)")
    return 0
}

/// The pattern registered by ``FuzzedRoute``, set before each host is built.
private let current = Mutex<RoutePattern?>(nil)

private struct FuzzedRoute: Route {
    static var pattern: RoutePattern? { current.withLock { $0 } }
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

private struct FuzzedServer: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(FuzzedRoute.self) { _, route, _ in route.parameters.description }
    }
}

/// A URL the valid pattern `text` matches, the parameters it captures and the rest, for patterns of letters,
/// digits, `_`, `-`, `~`, `.`, `:`, `*` and `/` with distinct parameter names; `nil` for the others.
private func sampleURL(for text: String) -> (URL, [String: String], String?)? {
    let plain = text.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            || "_-~.:*/".unicodeScalars
                .contains($0)
    }
    guard plain, text.hasPrefix("/"), !text.contains("://") else { return nil }
    var path: [String] = []
    var expected: [String: String] = [:]
    var rest: String?
    for segment in text.split(separator: "/") {
        if segment == "**" {
            path += ["r1", "r2"]
            rest = "r1/r2"
        } else if segment == "*" {
            path.append("w")
        } else if segment.hasPrefix(":") {
            let name = String(segment.dropFirst())
            guard expected[name] == nil else { return nil }
            expected[name] = "v\(expected.count)"
            path.append(expected[name]!)
        } else {
            path.append(String(segment))
        }
    }
    guard let url = URL(string: "/" + path.joined(separator: "/")) else { return nil }
    return (url, expected, rest)
}

@_cdecl("RoutePatternFuzzer_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzerRunDriver(argc, argv)
}
