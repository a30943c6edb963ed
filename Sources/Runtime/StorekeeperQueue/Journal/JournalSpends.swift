import Foundation
import GRDB

/// The journal's `spends` table: every spend this device made, by the app's
/// key, so that the same key is applied once however often it is retried or
/// replayed after a crash. Every write is durable in every mode: a spend
/// the app was told succeeded must not come back after a power loss.
extension Journal {
    /// Every spend, by key.
    func spends() throws(JournalError) -> [String: JournalSpend] {
        try read { db in
            var spends: [String: JournalSpend] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, balance, amount, keeping, state, remaining, date FROM spends") {
                guard let spend = Journal.spend(from: row) else { continue }
                spends[spend.key] = spend
            }
            return spends
        }
    }

    /// Journals `spend` unless its key is there already; returns the spend
    /// the journal held under the key, or nil when `spend` was written.
    func claimSpend(_ spend: JournalSpend) throws(JournalError) -> JournalSpend? {
        var existing: JournalSpend?
        try writing { db in
            existing = try Row.fetchOne(db, sql: "SELECT key, balance, amount, keeping, state, remaining, date FROM spends WHERE key = ?",
                                        arguments: [spend.key]).flatMap(Journal.spend(from:))
            guard existing == nil else { return }
            try db.execute(sql: "INSERT INTO spends (key, balance, amount, keeping, state, remaining, date) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [spend.key, spend.balance, spend.amount, spend.keeping.rawValue, spend.state.rawValue,
                                       spend.remaining, spend.date.timeIntervalSince1970])
        }
        return existing
    }

    /// Marks a pending spend applied, with what remained.
    func settleSpend(key: String, remaining: Int) throws(JournalError) {
        try writing { db in
            try db.execute(sql: "UPDATE spends SET state = ?, remaining = ? WHERE key = ?",
                           arguments: [JournalSpend.State.applied.rawValue, remaining, key])
        }
    }

    /// Removes a pending spend that was refused: nothing was spent.
    func dropPendingSpend(key: String) throws(JournalError) {
        try writing { db in
            try db.execute(sql: "DELETE FROM spends WHERE key = ? AND state = ?", arguments: [key, JournalSpend.State.pending.rawValue])
        }
    }

    private func writing(_ body: (Database) throws -> Void) throws(JournalError) {
        do {
            try write(durable: true, body)
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: path, error)
        }
    }

    private static func spend(from row: Row) -> JournalSpend? {
        guard let keeping = BalanceKeeping(rawValue: row["keeping"]), let state = JournalSpend.State(rawValue: row["state"]) else {
            return nil
        }
        return JournalSpend(key: row["key"], balance: row["balance"], amount: row["amount"], keeping: keeping, state: state,
                            remaining: row["remaining"], date: Date(timeIntervalSince1970: row["date"]))
    }
}
