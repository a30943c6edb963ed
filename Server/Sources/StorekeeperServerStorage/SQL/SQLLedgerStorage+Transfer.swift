/// A restore by another user under the `transfer` policy: a purchase (every
/// transaction of one original transaction) changes hands, with what its
/// grants are worth.
extension SQLLedgerStorage {
    public func transfer(originalTransactionID: String, from: String, to: String) async throws -> Bool {
        try Self.require(!originalTransactionID.isEmpty, "transfer: the original transaction id is empty")
        try Self.require(!from.isEmpty, "transfer of '\(originalTransactionID)': the user it leaves is empty")
        try Self.require(!to.isEmpty, "transfer of '\(originalTransactionID)': the user it goes to is empty")
        guard from != to else { return false }
        return try await database.transaction { session in
            // The conditional UPDATE is the claim: a concurrent transfer waits on the rows, then finds them moved.
            let moved = try await session.run(
                "UPDATE transactions SET user_id = ? WHERE original_transaction_id = ? AND user_id = ? RETURNING transaction_id",
                .text(to), .text(originalTransactionID), .text(from))
            for row in moved { try await Self.moveGrants(of: try row.text(0), from: from, to: to, in: session) }
            return !moved.isEmpty
        }
    }

    /// Moves a transaction's grants and what each is worth now (its amount less what a refund
    /// took back): `from`'s net goes down by that, below zero if `from` spent it, and `to`'s up.
    private static func moveGrants(of transactionID: String, from: String, to: String, in session: any SQLSession) async throws {
        let grants = try await session.run(
            "UPDATE grants SET user_id = ? WHERE transaction_id = ? AND user_id = ? RETURNING balance, environment, amount, revoked_amount",
            .text(to), .text(transactionID), .text(from))
        for row in grants {
            let (balance, environment, amount, revoked) = (try row.text(0), try row.text(1), try row.integer(2), try row.optionalInteger(3) ?? 0)
            try await add(-(amount - revoked), of: balance, in: environment, to: from, in: session)
            try await add(amount - revoked, of: balance, in: environment, to: to, in: session)
        }
    }
}
