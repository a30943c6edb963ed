/// An amount of a balance that a transaction grants (the policy's `grants`
/// times the quantity), applied exactly once per transaction and balance.
public struct Grant: Sendable, Equatable {
    /// The user whose balance grows.
    public var user: String
    /// The transaction that grants it: with `balance`, the key.
    public var transactionID: String
    /// The balance's name (`coins`).
    public var balance: String
    /// How much; positive.
    public var amount: Int

    /// A grant of `amount` of `balance` to `user` for `transactionID`.
    public init(user: String, transactionID: String, balance: String, amount: Int) {
        self.user = user
        self.transactionID = transactionID
        self.balance = balance
        self.amount = amount
    }
}
