import StorekeeperCore

/// Balances as sums: each grant adds its amount once, a revoked version of its
/// transaction takes its share back, a reversal gives it back, a spend takes
/// what it spent. The balance row holds the net, which may be below zero (a
/// refund of what was spent is owed), so the order these arrive in cannot
/// change it.
extension SQLLedgerStorage {
    public func apply(_ grant: Grant) async throws -> Bool {
        try Self.check(grant)
        return try await database.transaction { try await Self.apply(grant, in: $0) }
    }

    /// The grant's row is the proof it was applied: the balance grows only when that row is new.
    /// It is then settled by the transaction's newest kept version, so a grant of a transaction
    /// kept revoked (an older copy of a refunded purchase) nets its refunded share to nothing,
    /// and a later reversal gives it back.
    /// `settling: false` leaves the settlement to the caller, who settles once after the grants.
    static func apply(_ grant: Grant, in session: any SQLSession, settling: Bool = true) async throws -> Bool {
        let new = try await session.run(
            """
            INSERT INTO grants (transaction_id, balance, user_id, amount, environment, refunded_spends)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING amount
            """,
            .text(grant.transactionID), .text(grant.balance), .text(grant.user), SQLValue(grant.amount), .text(grant.environment),
            .text(grant.refundedSpends.rawValue))
        guard !new.isEmpty else { return false }
        try await add(grant.amount, of: grant.balance, in: grant.environment, to: grant.user, in: session)
        if settling { _ = try await settle(grant.transactionID, in: session) }
        return true
    }

    public func balances(of user: String, environment: String) async throws -> [String: Int] {
        try await database.transaction { session in
            var result: [String: Int] = [:]
            for row in try await session.run(
                "SELECT balance, amount FROM balances WHERE user_id = ? AND environment = ?", .text(user), .text(environment))
            {
                result[try row.text(0)] = try row.integer(1)
            }
            return result
        }
    }

    public func spend(_ request: SpendRequest) async throws -> SpendOutcome {
        try Self.require(!request.user.isEmpty, "the spend's user is empty")
        try Self.require(!request.key.isEmpty, "the spend's key is empty")
        try Self.require(!request.balance.isEmpty, "the spend's balance is empty")
        try Self.require(!request.environment.isEmpty, "the spend's environment is empty")
        try Self.require(request.amount > 0, "the spend's amount is \(request.amount); it must be positive")
        do {
            return try await spendOnce(request)
        } catch Refusal.insufficient(let available) {
            return .insufficient(available: available)
        }
    }

    /// The spend in one transaction; not enough throws ``Refusal`` so that the claimed key is rolled back with it.
    private func spendOnce(_ request: SpendRequest) async throws -> SpendOutcome {
        try await database.transaction { session in
            let r = request
            // The key first: a concurrent spend of the same key waits here for this one's commit, then finds it.
            let claimed = try await session.run(
                """
                INSERT INTO spends (user_id, spend_key, balance, amount, environment) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING RETURNING spend_key
                """,
                .text(r.user), .text(r.key), .text(r.balance), SQLValue(r.amount), .text(r.environment))
            if claimed.isEmpty {
                let earlier = try await session.run(
                    "SELECT balance, amount, remaining, environment FROM spends WHERE user_id = ? AND spend_key = ?", .text(r.user), .text(r.key))
                guard let row = earlier.first else { throw StorageError.transient("the spend key '\(r.key)' was claimed and released meanwhile") }
                let (balance, amount, environment) = (try row.text(0), try row.integer(1), try row.text(3))
                guard balance == r.balance, amount == r.amount, environment == r.environment else {
                    return .keyReused(balance: balance, amount: amount)
                }
                return .repeated(remaining: max(0, try row.integer(2)))
            }
            // One conditional UPDATE: accepted only when the net holds the amount, whatever runs beside it.
            let left = try await session.run(
                "UPDATE balances SET amount = amount - ? WHERE user_id = ? AND environment = ? AND balance = ? AND amount >= ? RETURNING amount",
                SQLValue(r.amount), .text(r.user), .text(r.environment), .text(r.balance), SQLValue(r.amount))
            guard let remaining = try left.first?.integer(0) else {
                let held = try await session.run(
                    "SELECT amount FROM balances WHERE user_id = ? AND environment = ? AND balance = ?",
                    .text(r.user), .text(r.environment), .text(r.balance))
                throw Refusal.insufficient(available: max(0, try held.first?.integer(0) ?? 0))
            }
            try await session.run(
                "UPDATE spends SET remaining = ? WHERE user_id = ? AND spend_key = ?", SQLValue(remaining), .text(r.user), .text(r.key))
            return .spent(remaining: remaining)
        }
    }

    public func revokeGrants(_ revocation: GrantRevocation) async throws -> Bool {
        try Self.check(revocation)
        return try await database.transaction { try await Self.revokeGrants(revocation, in: $0) }
    }

    public func reinstateGrants(of transactionID: String) async throws -> Bool {
        try Self.require(!transactionID.isEmpty, "reinstating grants: the transaction id is empty")
        return try await database.transaction { try await Self.reinstateGrants(of: transactionID, in: $0) }
    }

    /// A kept transaction is settled by its newest kept version; grants of one not kept take the revocation's share.
    static func revokeGrants(_ revocation: GrantRevocation, in session: any SQLSession) async throws -> Bool {
        if let changed = try await settle(revocation.transactionID, in: session) { return changed }
        return try await setTakenBack(of: revocation.transactionID, date: revocation.date, in: session) {
            GrantRevocation.portion(revocation.share, of: $0)
        }
    }

    /// A kept transaction is settled by its newest kept version; grants of one not kept are given back.
    static func reinstateGrants(of transactionID: String, in session: any SQLSession) async throws -> Bool {
        if let changed = try await settle(transactionID, in: session) { return changed }
        return try await setTakenBack(of: transactionID, date: nil, in: session) { _ in 0 }
    }

    /// Brings a kept transaction's grants to what its kept version says: nothing taken back while it
    /// stands, its `revocationPercentage` share (all when absent) once revoked. The transaction's row
    /// is locked first, so that two settlements of one transaction follow each other. Answers
    /// whether a balance changed, or nil when the transaction is not kept.
    static func settle(_ transactionID: String, in session: any SQLSession) async throws -> Bool? {
        let kept = try await session.run(
            "UPDATE transactions SET signed_date = signed_date WHERE transaction_id = ? RETURNING revocation_date, revocation_percentage",
            .text(transactionID))
        guard let row = kept.first else { return nil }
        let (revoked, percentage) = (try row.optionalReal(0), try row.optionalInteger(1))
        return try await setTakenBack(of: transactionID, date: revoked, in: session) { amount in
            revoked == nil ? 0 : GrantRevocation.portion(percentage ?? GrantRevocation.whole, of: amount)
        }
    }

    /// Sets what is taken back of each of the transaction's grants to `target(amount)`, moving each
    /// balance by the difference from what was settled before. The no-op `UPDATE` locks the grants
    /// first (PostgreSQL: a concurrent settlement waits, and reads what this one wrote).
    ///
    /// A grant under `forgive` (the catalog's `refunds.spent-balance`) takes back at most what its
    /// balance holds when the refund is settled, and remembers the rest as forgiven, so settling
    /// again neither takes it later nor gives back what was never taken.
    private static func setTakenBack(
        of transactionID: String, date: Double?, in session: any SQLSession, target: (Int) -> Int
    ) async throws -> Bool {
        let grants = try await session.run(
            """
            UPDATE grants SET revoked_amount = revoked_amount WHERE transaction_id = ?
            RETURNING balance, user_id, environment, amount, revoked_amount, forgiven_amount, refunded_spends
            """,
            .text(transactionID))
        var changed = false
        for row in grants {
            let (balance, user, environment, amount) = (try row.text(0), try row.text(1), try row.text(2), try row.integer(3))
            let settled = RefundSettlement(taken: try row.optionalInteger(4) ?? 0, forgiven: try row.optionalInteger(5) ?? 0)
            let wanted = date == nil ? 0 : target(amount)
            guard wanted != settled.total else { continue }
            let held = try row.text(6) == RefundedSpendPolicy.forgive.rawValue && wanted > settled.total
                ? try await net(of: balance, in: environment, of: user, in: session) : nil
            let next = settled.settling(to: wanted, holding: held)
            try await add(settled.taken - next.taken, of: balance, in: environment, to: user, in: session)
            try await session.run(
                "UPDATE grants SET revoked_amount = ?, forgiven_amount = ?, revoked_at = ? WHERE transaction_id = ? AND balance = ?",
                next.taken == 0 ? .null : SQLValue(next.taken), next.forgiven == 0 ? .null : SQLValue(next.forgiven),
                next.total == 0 ? .null : SQLValue(date), .text(transactionID), .text(balance))
            changed = changed || next.taken != settled.taken
        }
        return changed
    }

    /// `user`'s net of `balance` in `environment`, its row locked for the rest of the transaction.
    private static func net(of balance: String, in environment: String, of user: String, in session: any SQLSession) async throws -> Int {
        let rows = try await session.run(
            "UPDATE balances SET amount = amount WHERE user_id = ? AND environment = ? AND balance = ? RETURNING amount",
            .text(user), .text(environment), .text(balance))
        return try rows.first?.integer(0) ?? 0
    }

    /// Adds `amount` (negative takes) to `user`'s `balance` in `environment`, creating it.
    static func add(_ amount: Int, of balance: String, in environment: String, to user: String, in session: any SQLSession) async throws {
        guard amount != 0 else { return }
        try await session.run(
            """
            INSERT INTO balances (user_id, environment, balance, amount) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, environment, balance) DO UPDATE SET amount = balances.amount + excluded.amount
            """,
            .text(user), .text(environment), .text(balance), SQLValue(amount))
    }
}
