/// A restore by another user under the `transfer` policy: a kept transaction
/// changes hands, with what hangs on it.
extension SQLLedgerStorage {
    public func transfer(transactionID: String, from: String, to: String) async throws -> Bool {
        try Self.require(!transactionID.isEmpty, "transfer: the transaction id is empty")
        try Self.require(!from.isEmpty, "transfer of transaction '\(transactionID)': the user it leaves is empty")
        try Self.require(!to.isEmpty, "transfer of transaction '\(transactionID)': the user it goes to is empty")
        guard from != to else { return false }
        return try await database.transaction { session in
            // The conditional UPDATE is the claim: a concurrent transfer waits on the row, then finds it moved.
            let moved = try await session.run(
                "UPDATE transactions SET user_id = ? WHERE transaction_id = ? AND user_id = ? RETURNING original_transaction_id",
                .text(to), .text(transactionID), .text(from))
            guard let original = try moved.first?.text(0) else { return false }
            var transactionIDs = [transactionID]
            let subscription = try await session.run(
                "UPDATE subscriptions SET user_id = ? WHERE original_transaction_id = ? AND user_id = ? RETURNING original_transaction_id",
                .text(to), .text(original), .text(from))
            if !subscription.isEmpty {
                // The subscription moves whole: its other periods (and its first purchase) go with it.
                let periods = try await session.run(
                    "UPDATE transactions SET user_id = ? WHERE original_transaction_id = ? AND user_id = ? RETURNING transaction_id",
                    .text(to), .text(original), .text(from))
                transactionIDs += try periods.map { try $0.text(0) }
            }
            for id in transactionIDs { try await Self.moveGrants(of: id, from: from, to: to, in: session) }
            return true
        }
    }

    /// Moves a transaction's grants, and the part of each that the balance still holds (what was
    /// spent or revoked stays spent or revoked).
    private static func moveGrants(of transactionID: String, from: String, to: String, in session: any SQLSession) async throws {
        let grants = try await session.run(
            "UPDATE grants SET user_id = ? WHERE transaction_id = ? AND user_id = ? RETURNING balance, amount, revoked_amount",
            .text(to), .text(transactionID), .text(from))
        for row in grants {
            let (balance, amount, revoked) = (try row.text(0), try row.integer(1), try row.optionalInteger(2) ?? 0)
            let taken = try await take(upTo: amount - revoked, of: balance, from: from, in: session)
            try await add(taken, of: balance, to: to, in: session)
        }
    }
}
