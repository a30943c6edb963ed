extension SQLLedgerStorage {
    /// One `SELECT` over the records' key (`user_id`, `transaction_id`), read without a lock.
    public func recordCount(of user: String, holding transactionID: String) async throws -> (count: Int, holds: Bool) {
        try await database.read { session in
            let rows = try await session.run(
                """
                SELECT COUNT(*), COALESCE(SUM(CASE WHEN transaction_id = ? THEN 1 ELSE 0 END), 0)
                FROM records WHERE user_id = ?
                """, .text(transactionID), .text(user))
            guard let row = rows.first else { return (0, false) }
            return (try row.integer(0), try row.integer(1) > 0)
        }
    }
}
