public import StorekeeperCore

/// An amount of a balance that a transaction grants (the policy's `grants`
/// times the quantity), applied exactly once per transaction and balance, to
/// the user's balance of the transaction's environment (a sandbox purchase
/// never adds to a production balance).
public struct Grant: Sendable, Equatable {
    /// The user whose balance grows.
    public var user: String
    /// The transaction that grants it: with `balance`, the key.
    public var transactionID: String
    /// The balance's name (`coins`).
    public var balance: String
    /// How much; positive.
    public var amount: Int
    /// The transaction's App Store environment (`Production`, `Sandbox`, ...): whose balance grows.
    public var environment: String
    /// What a refund of this grant takes back once it is spent: the catalog's `refunds.spent-balance`
    /// when it was granted, kept with the grant so a later catalog change does not rewrite old refunds.
    public var refundedSpends: RefundedSpendPolicy

    /// A grant of `amount` of `balance` to `user` for `transactionID`, in `environment`.
    public init(
        user: String, transactionID: String, balance: String, amount: Int, environment: String,
        refundedSpends: RefundedSpendPolicy = .default
    ) {
        self.user = user
        self.transactionID = transactionID
        self.balance = balance
        self.amount = amount
        self.environment = environment
        self.refundedSpends = refundedSpends
    }
}
