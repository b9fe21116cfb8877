import LifecycleCore
import Testing

enum Port: LaunchOptionKey {
    static let defaultValue = 8080
}

enum Tags: LaunchOptionKey {
    static let defaultValue: [String] = []
}

@Suite("LaunchOptions")
struct LaunchOptionsTests {
    @Test("Typed values fall back to the key's default, and are stored per key type")
    func typedValues() {
        var options = LaunchOptions()
        #expect(options[Port.self] == 8080)
        #expect(options.contains(Port.self) == false)
        options[Port.self] = 9000
        options[Tags.self] = ["a", "b"]
        #expect(options[Port.self] == 9000)
        #expect(options[Tags.self] == ["a", "b"])
        #expect(options.contains(Port.self))
    }

    @Test(
        "argument(_:) reads `--name value` and `--name=value`; the last occurrence wins",
        arguments: [
            (["prog", "--port", "80"], "80"),
            (["prog", "--port=81"], "81"),
            (["prog", "--port", "80", "--port=82"], "82"),
            (["prog", "--port"], nil),
            (["prog", "--portable", "x"], nil),
            (["prog", "--port="], ""),
            (["prog", "--port", "--port"], "--port"),
        ] as [([String], String?)]
    )
    func argumentLookup(arguments: [String], expected: String?) {
        #expect(LaunchOptions(arguments: arguments).argument("--port") == expected)
    }

    @Test("Odd environment keys and values are kept verbatim")
    func oddEnvironment() {
        let options = LaunchOptions(environment: ["": "empty key", "A=B": "=", "ünïcødé": "\u{0}"])
        #expect(options.environment[""] == "empty key")
        #expect(options.environment["A=B"] == "=")
        #expect(options.environment["ünïcødé"] == "\u{0}")
    }

    @Test("current reflects this process")
    func current() {
        #expect(LaunchOptions.current.arguments == CommandLine.arguments)
    }
}
