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
///   the grants known then less what it said remains, in the answer to a
///   spend or `GET /v1/entitlements` at start and refresh) − this device's
///   spends still waiting for the server's answer; until the server has said
///   anything, as `device`. Counting the server's word as spends, not as a
///   balance, keeps a purchase the server had recorded before this device
///   granted it (a crash between the two) from counting twice.
///
/// A balance is never shown below zero: what the spends exceed the grants
/// by (two devices spent the same coins before iCloud synced, or a purchase
/// spent was refunded) is reported as `overdrawn`.
struct BalanceBook: Sendable, Hashable {
    /// What the server's word says was spent of a balance it keeps: the
    /// grants known when it answered, less what it said remains.
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

    /// Notes what the server says remains of a balance it keeps.
    mutating func hear(server remaining: Int, of balance: String, granted ledger: EntitlementLedger, revoked: Set<String>) {
        // A server that holds more than this device has granted knows of a
        // purchase whose grant has not run here yet (verified, then the app
        // died): that is no spend, and must not add to the balance later.
        server[balance] = ServerWord(spent: max(0, (grants(granted: ledger, revoked: revoked)[balance] ?? 0) - remaining))
    }

    /// The balances shown and the overdrafts, given what this device granted.
    func balances(granted ledger: EntitlementLedger, revoked: Set<String>) -> (balances: [String: Int], overdrawn: [String: Int]) {
        if elsewhereGrants.isEmpty, local.isEmpty, synced.isEmpty, server.isEmpty { return (ledger.balances, [:]) }
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
        return (shown, overdrawn)
    }
}
