/// A service the rest of the program knows only as this protocol. Its implementation lives in
/// `GreetingProvider`, which nobody imports.
public protocol Greeter: Sendable {
    /// A greeting for `name`.
    func greet(_ name: String) -> String
}
