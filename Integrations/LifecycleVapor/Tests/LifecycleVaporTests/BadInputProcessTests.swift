import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bad input from outside to the example's health and admin routes, as a real process on a loopback port:
/// each request gets the status Docs/Hosting.md documents ("Bad input to the health and admin routes"), or,
/// for what Vapor cannot parse as HTTP, a closed connection; none of them changes the host's state, and the
/// process serves on and exits 0 at SIGTERM.
@Suite(.serialized) struct BadInputProcessTests {
    /// A request for `target` with `method`, `headers` after the usual ones, and `body`.
    private func request(
        _ method: String,
        _ target: String,
        _ headers: [String] = [],
        body: [UInt8] = []
    ) -> [UInt8] {
        let head = (["Host: 127.0.0.1", "Connection: close"] + headers).map { $0 + "\r\n" }.joined()
        return Array("\(method) \(target) HTTP/1.1\r\n\(head)\r\n".utf8) + body
    }

    @Test func badRequestsGetTheirDocumentedAnswerAndChangeNothing() async throws {
        let example = try ExampleProcess(environment: ["ADMIN_TOKEN": "s3cret"])
        let port = try #require(await example.waitUntilServing(), "not serving: \(example.standardError)")
        let token = "Authorization: Bearer s3cret"
        let cases: [(String, [UInt8], Int?)] = [
            // Methods and paths no route has: 404, whatever the token.
            ("DELETE /health/ready", request("DELETE", "/health/ready"), 404),
            ("GET /lifecycle/background", request("GET", "/lifecycle/background", [token]), 404),
            ("PUT /lifecycle/foreground", request("PUT", "/lifecycle/foreground", [token]), 404),
            ("a .. segment", request("POST", "/health/../lifecycle/background", [token]), 404),
            ("an encoded .. segment", request("POST", "/health/%2e%2e/lifecycle/background", [token]), 404),
            ("an encoded NUL", request("GET", "/health/ready%00"), 404),
            ("a 20 KiB path", request("GET", "/health/" + String(repeating: "a", count: 20_000)), 404),
            // Vapor drops empty segments, and the health routes read no query.
            ("empty segments", request("GET", "//health//ready"), 200),
            ("a malformed query", request("GET", "/health/ready?x=%zz"), 200),
            // The admin routes: the example's token guard, then Vapor's body limit (16 KiB collected).
            ("a wrong token", request("POST", "/lifecycle/background", ["Authorization: Bearer nope"]), 403),
            ("a malformed Authorization", request("POST", "/lifecycle/background", ["Authorization: Basic"]), 403),
            (
                "a 1 MB body",
                request(
                    "POST",
                    "/lifecycle/background",
                    [token, "Content-Length: 1000000"],
                    body: Array(repeating: UInt8(ascii: "x"), count: 1_000_000)
                ),
                413
            ),
            // Not HTTP that Vapor's parser accepts: the connection is closed without an answer.
            ("a control byte in a header", request("GET", "/health/ready", ["X-Bad: a\u{1}b"]), nil),
            (
                "a 100 KiB header",
                request("GET", "/health/ready", ["X-Big: " + String(repeating: "a", count: 100_000)]), nil
            ),
            (
                "a malformed chunk",
                request(
                    "POST",
                    "/lifecycle/background",
                    [token, "Transfer-Encoding: chunked"],
                    body: Array("zz\r\nabc\r\n0\r\n\r\n".utf8)
                ),
                nil
            ),
            (
                "a Content-Length that is no number",
                request("POST", "/lifecycle/background", [token, "Content-Length: abc"]), nil
            ),
            ("no request line", Array("HELLO\r\n\r\n".utf8), nil),
            ("HTTP/9.9", Array("GET /health/ready HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n".utf8), nil),
        ]
        for (name, bytes, expected) in cases {
            let status = try await rawHTTP(bytes, port: port)
            #expect(status == expected, "\(name): \(status.map(String.init) ?? "closed without an answer")")
        }
        // Nothing was half-applied: the host is still active and ready, and serves.
        let (readyStatus, ready) = try await http("GET", "/health/ready", port: port)
        #expect(readyStatus == 200)
        #expect(ready.contains(#""state":"active""#))
        #expect(try await http("GET", "/users", port: port).0 == 200)
        example.send(SIGTERM)
        #expect(await example.waitForExit() == 0, "stderr: \(example.standardError)")
    }
}
