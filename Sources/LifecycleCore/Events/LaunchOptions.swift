#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the program was launched with: its arguments, its environment, and a typed bag of values the host
/// program fills in before launch.
///
/// Modules read launch options from ``LifecycleContext/launchOptions``.
///
/// Typed values are looked up by key type, never by string:
///
/// ```swift
/// enum ListenPort: LaunchOptionKey {
///     static let defaultValue = 8080
/// }
///
/// var options = LaunchOptions.current
/// options[ListenPort.self] = 9000
/// ```
public struct LaunchOptions: Sendable {
    /// The program's arguments, including the program name at index 0 when taken from the process.
    public var arguments: [String]
    /// The program's environment variables.
    public var environment: [String: String]
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Creates launch options from explicit arguments and environment (for tests, and for hosts that
    /// filter what modules see).
    public init(arguments: [String] = [], environment: [String: String] = [:]) {
        self.arguments = arguments
        self.environment = environment
    }

    /// The current process's arguments and environment.
    public static var current: LaunchOptions {
        LaunchOptions(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// The value stored for `key`, or the key's ``LaunchOptionKey/defaultValue``.
    public subscript<Key: LaunchOptionKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether a value was stored for `key` (as opposed to falling back to its default).
    public func contains<Key: LaunchOptionKey>(_ key: Key.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }

    /// The value that follows `name` in ``arguments`` (`--port 80`), or that `name=` introduces
    /// (`--port=80`). The last occurrence wins; `nil` when absent or when `name` ends the arguments.
    public func argument(_ name: String) -> String? {
        var found: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == name {
                let next = arguments.index(after: index)
                if next < arguments.endIndex {
                    found = arguments[next]
                    index = next
                }
            } else if argument.hasPrefix(name + "=") {
                found = String(argument.dropFirst(name.count + 1))
            }
            index = arguments.index(after: index)
        }
        return found
    }
}

/// A typed key for a value in ``LaunchOptions``.
public protocol LaunchOptionKey {
    /// The type of the stored value.
    associatedtype Value: Sendable
    /// The value read when none was stored.
    static var defaultValue: Value { get }
}
