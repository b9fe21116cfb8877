/// No account has the id a request asked for.
public struct UnknownAccount: Error, CustomStringConvertible {
    /// The id asked for.
    public let id: Int

    public init(id: Int) {
        self.id = id
    }

    public var description: String { "no account has the id \(id)" }
}
