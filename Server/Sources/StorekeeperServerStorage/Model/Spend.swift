/// A spend of a server-kept balance, idempotent by its key (per user).
public struct SpendRequest: Sendable, Equatable {
    /// The user spending.
    public var user: String
    /// The app's idempotency key for this one spend.
    public var key: String
    /// The balance spent.
    public var balance: String
    /// How much; positive.
    public var amount: Int
    /// The App Store environment whose balance is spent (`Production`, `Sandbox`, ...).
    public var environment: String

    /// A spend of `amount` of `balance` by `user`, under `key`, in `environment`.
    public init(user: String, key: String, balance: String, amount: Int, environment: String) {
        self.user = user
        self.key = key
        self.balance = balance
        self.amount = amount
        self.environment = environment
    }
}

/// What a spend did.
public enum SpendOutcome: Sendable, Hashable {
    /// Spent now; `remaining` is the balance after it.
    case spent(remaining: Int)
    /// The key was spent before with the same body: the first answer, nothing spent again.
    case repeated(remaining: Int)
    /// The key was spent before with another body (`balance`, `amount` are the first spend's): refused.
    case keyReused(balance: String, amount: Int)
    /// Not enough: `available` is the balance (0 when it is owed); nothing spent.
    case insufficient(available: Int)
}
