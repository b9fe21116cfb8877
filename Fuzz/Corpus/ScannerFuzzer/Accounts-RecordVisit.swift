import LifecycleMessaging

/// Tells ``AccountsModule`` that an account had a visit. Its reply is the account's number of visits so far.
public struct RecordVisit: Message {
    public typealias Reply = Int

    /// The account's id.
    public let account: Int

    public init(account: Int) {
        self.account = account
    }
}
