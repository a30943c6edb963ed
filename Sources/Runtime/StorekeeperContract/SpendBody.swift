/// The body of `PUT /v1/spends/{key}`: how much of which balance to spend.
public struct SpendBody: Codable, Hashable, Sendable {
    /// The balance's name, as the catalog declares it.
    public var balance: String
    /// How much to spend: a positive integer.
    public var amount: Int

    /// The body, for the documentation and the 400's message.
    public static let shape = #"{"balance": NAME, "amount": a positive integer}"#

    /// A spend of `amount` of `balance`.
    package init(balance: String, amount: Int) {
        self.balance = balance
        self.amount = amount
    }

    /// The document's rules: a balance named, a positive amount.
    ///
    /// - Throws: ``ContractError`` naming the member at fault.
    public func validate() throws(ContractError) {
        guard !balance.isEmpty else { throw ContractError("balance: empty; the body must be \(Self.shape)") }
        guard amount > 0 else { throw ContractError("amount: \(amount); the body must be \(Self.shape)") }
    }
}
