import Foundation
import Testing

/// Bad input from outside to the example's health probes and admin API, as a real process on a loopback
/// port: each request gets the status Docs/Hosting.md documents ("Bad input, from outside"), none of them
/// changes the host's state, and the process serves on and exits 0 at SIGTERM.
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
        let example = try ExampleProcess(arguments: ["--port", "0", "--admin-token", "s3cret"])
        let port = try #require(await example.waitUntilServing(), "not serving")
        let token = "Authorization: Bearer s3cret"
        let cases: [(String, [UInt8], Int?)] = [
            // Hummingbird's router: methods and paths no route has.
            ("DELETE /health/ready", request("DELETE", "/health/ready"), 404),
            ("a .. segment outside /admin", request("GET", "/health/../admin/modules", [token]), 404),
            ("an encoded NUL", request("GET", "/health/ready%00"), 404),
            ("a 20 KiB path", request("GET", "/health/" + String(repeating: "a", count: 20_000)), 404),
            ("empty segments", request("GET", "//health//ready"), 200),
            // The admin API's own answers (AdminFailure).
            ("an admin path no route has", request("GET", "/admin/nothing", [token]), 404),
            ("a parameter of the wrong type", request("POST", "/admin/store/fill?count=abc", [token]), 400),
            ("a wrong token", request("GET", "/admin/modules", ["Authorization: Bearer nope"]), 403),
            ("a malformed Authorization", request("GET", "/admin/modules", ["Authorization: Basic"]), 401),
            // The admin routes read no body: one of any size is not read, and the route answers as without it.
            (
                "a 1 MB body",
                request(
                    "POST",
                    "/admin/store/fill?count=1",
                    [token, "Content-Length: 1000000"],
                    body: Array(repeating: UInt8(ascii: "x"), count: 1_000_000)
                ),
                200
            ),
            // What Hummingbird's HTTP parser refuses: 400, and the connection closes.
            ("a control byte in a header", request("GET", "/health/ready", ["X-Bad: a\u{1}b"]), 400),
            (
                "a 100 KiB header",
                request("GET", "/health/ready", ["X-Big: " + String(repeating: "a", count: 100_000)]),
                400
            ),
            (
                "a Content-Length that is no number",
                request("POST", "/admin/store/fill", [token, "Content-Length: abc"]), 400
            ),
            ("no request line", Array("HELLO\r\n\r\n".utf8), 400),
            ("HTTP/9.9", Array("GET /health/ready HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n".utf8), 400),
        ]
        for (name, bytes, expected) in cases {
            let status = await HTTPExchange.raw(bytes, port: port).status
            #expect(status == expected, "\(name): \(status.map(String.init) ?? "closed without an answer")")
        }
        // Nothing was half-applied: the host is still active and ready, and serves.
        let ready = await HTTPExchange.get(port: port, path: "/health/ready")
        #expect(ready.status == 200)
        #expect(ready.body.contains(#""state":"active""#))
        example.send(SIGTERM)
        #expect(await example.waitForExit() == 0)
    }
}
