import Foundation

/// A spend as the journal's `spends` table keeps it.
struct JournalSpend: Sendable, Hashable {
    /// Sent to (or about to be sent to) the server or the iCloud store, not
    /// yet answered; or done.
    enum State: Int, Sendable, Hashable {
        case pending = 0
        case applied = 1
    }

    var key: String
    var balance: String
    var amount: Int
    var keeping: BalanceKeeping
    var state: State
    /// What was left when it was applied: the answer the same key gets again.
    var remaining: Int?
    var date: Date

    /// "100 coins", for messages.
    var summary: String { "\(amount) \(balance)" }
}
