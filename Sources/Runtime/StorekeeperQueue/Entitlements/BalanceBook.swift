import Foundation

/// The balances from every source: this device's grants (the journal),
/// grants that records kept elsewhere evidence (another device's iCloud
/// records, the server's), counted once per transaction and never for a
/// revoked one, minus spends (this device's, every device's in iCloud), or
/// the server's own word for a balance it keeps.
///
/// Per balance, by its ``BalanceKeeping``:
/// - `device`: grants − this device's spends;
/// - `icloud`: grants − every device's spends (one per key);
/// - `server`: grants − what the server last said was spent (by any device:
///   the grants known then less its net, what it said remains less what it
///   said is owed, in the answer to a spend or `GET /v1/entitlements` at
///   start and refresh) − this device's spends still waiting for the
///   server's answer; until the server has said anything, as `device`.
///   Counting the server's word as spends, not as a balance, keeps a
///   purchase the server had recorded before this device granted it (a
///   crash between the two) from counting twice.
///
/// A balance is never shown below zero: what the spends exceed the grants
/// by (two devices spent the same coins before iCloud synced, or a purchase
/// spent was refunded; for a `server` balance, what the server says is
/// `owed`) is reported as `overdrawn`.
///
/// A `server` balance the server has not confirmed is reported as
/// `unconfirmed`, with what failed: its last read failed (offline, a
/// refusal, an answer that is not the documented JSON, no server transport)
/// or its answer did not list a balance this device had grants or spends of
/// then. Its amount is then this device's reckoning, never passed off as the
/// server's.
struct BalanceBook: Sendable, Hashable {
    /// What the server's word says was spent of a balance it keeps: the
    /// grants known when it answered, less its net (what it said remains,
    /// less what it said is owed).
    struct ServerWord: Sendable, Hashable {
        var spent: Int
    }

    /// How each balance is kept.
    let keeping: [String: BalanceKeeping]
    /// Grants that records kept elsewhere evidence, by transaction, then balance.
    var elsewhereGrants: [String: [String: Int]] = [:]
    /// This device's spends, by key.
    private(set) var local: [String: JournalSpend] = [:]
    /// Spends kept in iCloud by every device, by key.
    private(set) var synced: [String: SpendRecord] = [:]
    /// The server's last word on the balances it keeps.
    var server: [String: ServerWord] = [:]
    /// The `server` balances the server has not confirmed, with what failed.
    private(set) var doubts: [String: String] = [:]

    // Sums of the spends, by balance, kept up to date as they change.
    private var spentHere: [String: Int] = [:]
    private var pendingHere: [String: Int] = [:]
    private var spentEverywhere: [String: Int] = [:]

    init(keeping: [String: BalanceKeeping]) {
        self.keeping = keeping
    }

    /// Replaces this device's spends (the journal's, at start).
    mutating func setLocal(_ spends: [String: JournalSpend]) {
        local = spends
        recount()
    }

    /// Adds or updates one of this device's spends.
    mutating func note(_ spend: JournalSpend) {
        local[spend.key] = spend
        recount()
    }

    /// Forgets one of this device's spends (refused: nothing was spent).
    mutating func forget(key: String) {
        local[key] = nil
        recount()
    }

    /// Replaces the spends read from iCloud.
    mutating func setSynced(_ spends: [SpendRecord]) {
        synced = Dictionary(spends.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        recount()
    }

    private mutating func recount() {
        spentHere = [:]
        pendingHere = [:]
        spentEverywhere = [:]
        for spend in local.values {
            spentHere[spend.balance, default: 0] += spend.amount
            if spend.state == .pending { pendingHere[spend.balance, default: 0] += spend.amount }
            if synced[spend.key] == nil { spentEverywhere[spend.balance, default: 0] += spend.amount }
        }
        for spend in synced.values { spentEverywhere[spend.balance, default: 0] += spend.amount }
    }

    /// Every grant, by balance: this device's, and those records kept
    /// elsewhere evidence for other transactions, revoked ones left out.
    func grants(granted ledger: EntitlementLedger, revoked: Set<String>) -> [String: Int] {
        var grants = ledger.balances
        for (transaction, amounts) in elsewhereGrants where !ledger.granted.contains(transaction) && !revoked.contains(transaction) {
            for (balance, amount) in amounts { grants[balance, default: 0] += amount }
        }
        return grants
    }

    /// Notes what the server says remains of a balance it keeps, and what
    /// it says is owed of it (a refund took back coins already spent): the
    /// balance is confirmed.
    mutating func hear(server remaining: Int, owed: Int = 0, of balance: String, granted ledger: EntitlementLedger, revoked: Set<String>) {
        // A server that holds more than this device has granted knows of a
        // purchase whose grant has not run here yet (verified, then the app
        // died): that is no spend, and must not add to the balance later.
        let net = remaining - owed
        server[balance] = ServerWord(spent: max(0, (grants(granted: ledger, revoked: revoked)[balance] ?? 0) - net))
        doubts[balance] = nil
    }

    /// Notes that the server's balances could not be read: every balance it
    /// keeps is unconfirmed, and `reason` says what failed. The last word
    /// heard (if any) stays what the amounts are reckoned from.
    mutating func doubt(_ reason: String) {
        for (balance, keeping) in keeping where keeping == .server { doubts[balance] = reason }
    }

    /// Notes that the server answered without listing `balance`: unknown,
    /// not zero, so nothing is taken for spent. Unconfirmed when this device
    /// has grants or spends of it now; else both say 0, and agree.
    mutating func unlisted(_ balance: String, reason: String, granted ledger: EntitlementLedger, revoked: Set<String>) {
        let known = grants(granted: ledger, revoked: revoked)[balance] != nil || spentHere[balance] != nil || spentEverywhere[balance] != nil
        doubts[balance] = known ? reason : nil
    }

    /// The balances shown, the overdrafts and the unconfirmed `server`
    /// balances with why, given what this device granted.
    func balances(granted ledger: EntitlementLedger, revoked: Set<String>) -> Shown {
        if elsewhereGrants.isEmpty, local.isEmpty, synced.isEmpty, server.isEmpty {
            return Shown(balances: ledger.balances, overdrawn: [:], unconfirmed: doubts)
        }
        let grants = grants(granted: ledger, revoked: revoked)
        var names = Set(grants.keys)
        names.formUnion(spentHere.keys)
        names.formUnion(spentEverywhere.keys)
        names.formUnion(server.keys)
        var shown: [String: Int] = [:]
        var overdrawn: [String: Int] = [:]
        for balance in names {
            let value: Int
            switch keeping[balance] ?? .device {
            case .server where server[balance] != nil:
                value = (grants[balance] ?? 0) - (server[balance]?.spent ?? 0) - (pendingHere[balance] ?? 0)
            case .icloud:
                value = (grants[balance] ?? 0) - (spentEverywhere[balance] ?? 0)
            case .device, .server:
                value = (grants[balance] ?? 0) - (spentHere[balance] ?? 0)
            }
            if value > 0 { shown[balance] = value }
            if value < 0 { overdrawn[balance] = -value }
        }
        return Shown(balances: shown, overdrawn: overdrawn, unconfirmed: doubts)
    }

    /// What ``balances(granted:revoked:)`` gives the entitlements.
    struct Shown: Sendable, Hashable {
        /// The balances shown, by name.
        var balances: [String: Int]
        /// By how much spends exceed grants (or the server says is owed).
        var overdrawn: [String: Int]
        /// The `server` balances the server has not confirmed, with what failed.
        var unconfirmed: [String: String]
    }
}
