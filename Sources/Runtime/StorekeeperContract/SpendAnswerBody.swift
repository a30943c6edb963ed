/// The answer of `PUT /v1/spends/{key}` when the spend was made (now, or
/// the first time the key was sent): the spend and what is left.
public struct SpendAnswerBody: Codable, Hashable, Sendable {
    /// The spend's key.
    public var key: String
    /// The balance spent.
    public var balance: String
    /// The amount spent.
    public var amount: Int
    /// The balance's net after the spend: 0 or more.
    public var remaining: Int

    /// A spend's answer.
    public init(key: String, balance: String, amount: Int, remaining: Int) {
        self.key = key
        self.balance = balance
        self.amount = amount
        self.remaining = remaining
    }
}
