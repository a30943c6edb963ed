/// Refunds and their reversals: what a transaction granted, taken back once
/// and given back once, on both databases.
extension SQLLedgerStorage {
    public func revokeGrants(_ revocation: GrantRevocation) async throws -> Bool {
        try Self.check(revocation)
        return try await database.transaction { try await Self.revokeGrants(revocation, in: $0) }
    }

    public func reinstateGrants(of transactionID: String) async throws -> Bool {
        try Self.require(!transactionID.isEmpty, "reinstating grants: the transaction id is empty")
        return try await database.transaction { try await Self.reinstateGrants(of: transactionID, in: $0) }
    }

    /// Claims the transaction's unrevoked grants with one conditional `UPDATE` (a concurrent
    /// revocation waits on the rows, then finds them revoked), then lowers each balance.
    static func revokeGrants(_ revocation: GrantRevocation, in session: any SQLSession) async throws -> Bool {
        // The kept transaction decides: a refund older than its reversal finds it standing and takes nothing.
        guard try await keptRevocationState(of: revocation.transactionID, in: session) != .standing else { return false }
        let claimed = try await session.run(
            """
            UPDATE grants SET revoked_at = ?, revoked_amount = 0
            WHERE transaction_id = ? AND revoked_at IS NULL RETURNING user_id, balance, amount
            """,
            .real(revocation.date), .text(revocation.transactionID))
        for row in claimed {
            let (user, balance, amount) = (try row.text(0), try row.text(1), try row.integer(2))
            let taken = try await take(upTo: share(revocation.share, of: amount), of: balance, from: user, in: session)
            try await session.run(
                "UPDATE grants SET revoked_amount = ? WHERE transaction_id = ? AND balance = ?",
                SQLValue(taken), .text(revocation.transactionID), .text(balance))
        }
        return !claimed.isEmpty
    }

    /// Un-marks the transaction's revoked grants with one conditional `UPDATE`, and gives each
    /// balance back what the revocation took.
    static func reinstateGrants(of transactionID: String, in session: any SQLSession) async throws -> Bool {
        guard try await keptRevocationState(of: transactionID, in: session) != .revoked else { return false }
        let restored = try await session.run(
            "UPDATE grants SET revoked_at = NULL WHERE transaction_id = ? AND revoked_at IS NOT NULL RETURNING user_id, balance, revoked_amount",
            .text(transactionID))
        for row in restored {
            let (user, balance, taken) = (try row.text(0), try row.text(1), try row.optionalInteger(2) ?? 0)
            try await add(taken, of: balance, to: user, in: session)
        }
        if !restored.isEmpty {
            try await session.run("UPDATE grants SET revoked_amount = NULL WHERE transaction_id = ? AND revoked_at IS NULL", .text(transactionID))
        }
        return !restored.isEmpty
    }

    /// Where the kept version of a transaction stands.
    enum KeptRevocationState {
        /// The server keeps no such transaction (grants alone are revoked or reinstated as asked).
        case notKept
        /// Kept, with no revocation date.
        case standing
        /// Kept, refunded or revoked.
        case revoked
    }

    static func keptRevocationState(of transactionID: String, in session: any SQLSession) async throws -> KeptRevocationState {
        let kept = try await session.run("SELECT revocation_date FROM transactions WHERE transaction_id = ?", .text(transactionID))
        guard let row = kept.first else { return .notKept }
        return try row.optionalReal(0) == nil ? .standing : .revoked
    }

    /// `share` thousandths of a percent of `amount`, rounded down, without overflow.
    static func share(_ share: Int, of amount: Int) -> Int {
        let whole = GrantRevocation.whole
        return amount / whole * share + amount % whole * share / whole
    }

    /// Takes up to `amount` from `user`'s `balance`, never below zero, and answers what was taken.
    /// The no-op `UPDATE` locks the row first (PostgreSQL: a concurrent spend waits, and the amount
    /// read is the latest committed), so what is read is what is lowered.
    static func take(upTo amount: Int, of balance: String, from user: String, in session: any SQLSession) async throws -> Int {
        guard amount > 0 else { return 0 }
        let held = try await session.run(
            "UPDATE balances SET amount = amount WHERE user_id = ? AND balance = ? RETURNING amount", .text(user), .text(balance))
        guard let current = try held.first?.integer(0) else { return 0 }
        let taken = min(current, amount)
        if taken > 0 {
            try await session.run(
                "UPDATE balances SET amount = amount - ? WHERE user_id = ? AND balance = ?", SQLValue(taken), .text(user), .text(balance))
        }
        return taken
    }

    /// Adds `amount` to `user`'s `balance`, creating it.
    static func add(_ amount: Int, of balance: String, to user: String, in session: any SQLSession) async throws {
        guard amount > 0 else { return }
        try await session.run(
            """
            INSERT INTO balances (user_id, balance, amount) VALUES (?, ?, ?)
            ON CONFLICT (user_id, balance) DO UPDATE SET amount = balances.amount + excluded.amount
            """,
            .text(user), .text(balance), SQLValue(amount))
    }
}
