import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// A `spend` action: the app spends an amount of a balance under a key of
/// its choosing (`TransactionQueue.spend`), and may die on the way.
public struct SpendRequest: Sendable, Hashable {
    /// Where the app dies during the spend, if it does.
    public enum Crash: String, Sendable, Hashable, CaseIterable {
        /// Once the spend is in the journal (applied on the device, pending
        /// for iCloud and the server), before the app hears of it.
        case journalled
        /// Once the server or the iCloud store took the spend, before the
        /// journal marks it applied.
        case sent
    }

    /// The balance.
    public var balance: Located<String>
    /// How much, 1 or more.
    public var amount: Located<Int>
    /// The app's idempotency key.
    public var key: Located<String>
    /// Where the app dies, if it does.
    public var crash: Located<Crash>?

    /// Creates a spend.
    public init(balance: Located<String>, amount: Located<Int>, key: Located<String>, crash: Located<Crash>? = nil) {
        self.balance = balance
        self.amount = amount
        self.key = key
        self.crash = crash
    }
}
