/// What the rest of the server knows of accounts: a service that other targets require by this protocol,
/// never by the type behind it.
public protocol AccountDirectory: Sendable {
    /// The name of the account `id`, or `nil` when there is none.
    func name(of id: Int) async -> String?
}
