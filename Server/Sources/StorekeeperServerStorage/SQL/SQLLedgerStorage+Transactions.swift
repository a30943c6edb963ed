/// Verified transactions: each kept once by its id in its newest signed
/// version, for the user who holds it, or, until someone does, as a
/// notification told it.
extension SQLLedgerStorage {
    public func keep(_ transaction: StoredTransaction) async throws -> TransactionWrite {
        try Self.check(transaction)
        return try await database.transaction { try await Self.keep(transaction, in: $0) }
    }

    /// Keeps `transaction` for its user: the newest of it and a version a notification told
    /// before anyone held it, inserted once by id, otherwise replacing only the same user's row
    /// and only with a newer `signedDate`; then its grants settled by the version kept.
    /// A transaction without an `appAccountToken` whose original another user holds (same
    /// ownership) is that user's: nothing is kept.
    /// `settling: false` leaves the settlement to the caller, who settles once after the grants.
    static func keep(_ transaction: StoredTransaction, in session: any SQLSession, settling: Bool = true) async throws -> TransactionWrite {
        try await keepVersion(transaction, in: session, settling: settling).write
    }

    /// ``keep(_:in:settling:)``, answering also the version kept (a newer told one may stand in for `transaction`).
    ///
    /// A purchase's first post is one statement: the insert answers whether a told version waits
    /// (rare: a refund told before anyone held the transaction), and only then is it read.
    static func keepVersion(
        _ transaction: StoredTransaction, in session: any SQLSession, settling: Bool = true
    ) async throws -> (write: TransactionWrite, kept: StoredTransaction) {
        if transaction.appAccountToken == nil {
            let holder = try await session.run(
                """
                SELECT user_id FROM transactions
                WHERE original_transaction_id = ? AND ownership = ? AND user_id <> ? AND transaction_id <> ? LIMIT 1
                """,
                .text(transaction.originalTransactionID), .text(transaction.ownership), .text(transaction.user),
                .text(transaction.transactionID))
            if !holder.isEmpty { return (.ownedByAnotherUser, transaction) }
        }
        var (write, told) = try await insert(transaction, in: session)
        var kept = transaction
        if write == nil || told {
            if let version = try await toldVersion(of: transaction.transactionID, in: session) {
                told = true
                if version.signedDate > kept.signedDate {
                    kept = version
                    kept.user = transaction.user
                }
            }
            let replaced = try await update(kept, in: session)
            if write == nil { write = replaced ? .updated : try await owner(of: kept, in: session) }
        }
        let kind = write ?? .unchanged
        // Held now: the told version (older, or just kept) is no longer needed.
        if told, kind != .ownedByAnotherUser {
            try await session.run("DELETE FROM told_transactions WHERE transaction_id = ?", .text(kept.transactionID))
        }
        if settling, kind == .inserted || kind == .updated { _ = try await settle(kept.transactionID, in: session) }
        return (kind, kept)
    }

    /// Inserts `t` when its id is new (`.inserted`, else nil), answering also whether a told version of it waits.
    private static func insert(_ t: StoredTransaction, in session: any SQLSession) async throws -> (TransactionWrite?, told: Bool) {
        let inserted = try await session.run(
            """
            INSERT INTO transactions (transaction_id, user_id, original_transaction_id, product_id, environment, quantity,
                purchase_date, expiration_date, revocation_date, signed_date, payload, revocation_percentage, is_upgraded,
                ownership, app_account_token)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            RETURNING CASE WHEN EXISTS (SELECT 1 FROM told_transactions WHERE told_transactions.transaction_id = ?) THEN 1 ELSE 0 END
            """,
            .text(t.transactionID), .text(t.user), .text(t.originalTransactionID), .text(t.productID), .text(t.environment),
            SQLValue(t.quantity), .real(t.purchaseDate), SQLValue(t.expirationDate), SQLValue(t.revocationDate),
            .real(t.signedDate), .text(t.payload), SQLValue(t.revocationPercentage), SQLValue(t.isUpgraded ? 1 : 0),
            .text(t.ownership), SQLValue(t.appAccountToken), .text(t.transactionID))
        guard let row = inserted.first else { return (nil, false) }
        return (.inserted, try row.integer(0) != 0)
    }

    /// Replaces the same user's row of `t` with `t` when `t` is newer; answers whether it did.
    private static func update(_ t: StoredTransaction, in session: any SQLSession) async throws -> Bool {
        let updated = try await session.run(
            """
            UPDATE transactions SET original_transaction_id = ?, product_id = ?, environment = ?, quantity = ?,
                purchase_date = ?, expiration_date = ?, revocation_date = ?, signed_date = ?, payload = ?,
                revocation_percentage = ?, is_upgraded = ?, ownership = ?, app_account_token = ?
            WHERE transaction_id = ? AND user_id = ? AND signed_date < ? RETURNING transaction_id
            """,
            .text(t.originalTransactionID), .text(t.productID), .text(t.environment), SQLValue(t.quantity),
            .real(t.purchaseDate), SQLValue(t.expirationDate), SQLValue(t.revocationDate), .real(t.signedDate), .text(t.payload),
            SQLValue(t.revocationPercentage), SQLValue(t.isUpgraded ? 1 : 0), .text(t.ownership), SQLValue(t.appAccountToken),
            .text(t.transactionID), .text(t.user), .real(t.signedDate))
        return !updated.isEmpty
    }

    /// Whether the row `t` did not replace is its own user's (`.unchanged`) or another user's.
    private static func owner(of t: StoredTransaction, in session: any SQLSession) async throws -> TransactionWrite {
        let owner = try await session.run("SELECT user_id FROM transactions WHERE transaction_id = ?", .text(t.transactionID))
        return try owner.first?.text(0) == t.user ? .unchanged : .ownedByAnotherUser
    }

    /// The version of a transaction a notification told before anyone held it, if one waits.
    private static func toldVersion(of transactionID: String, in session: any SQLSession) async throws -> StoredTransaction? {
        try await session.run("SELECT \(toldColumns) FROM told_transactions WHERE transaction_id = ?", .text(transactionID))
            .first.map(Self.storedTransaction)
    }

    /// Keeps a version a notification told: for the user who holds the transaction, if one does
    /// now; otherwise among the told versions, the newest signed winning.
    static func keepTold(_ transaction: StoredTransaction, in session: any SQLSession) async throws {
        let t = transaction
        let held = try await session.run("SELECT user_id FROM transactions WHERE transaction_id = ?", .text(t.transactionID))
        if let user = try held.first?.text(0) {
            var kept = t
            kept.user = user
            _ = try await keep(kept, in: session)
            return
        }
        try await session.run(
            """
            INSERT INTO told_transactions (transaction_id, original_transaction_id, product_id, environment, quantity,
                purchase_date, expiration_date, revocation_date, revocation_percentage, is_upgraded, ownership,
                app_account_token, signed_date, payload)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (transaction_id) DO UPDATE SET original_transaction_id = excluded.original_transaction_id,
                product_id = excluded.product_id, environment = excluded.environment, quantity = excluded.quantity,
                purchase_date = excluded.purchase_date, expiration_date = excluded.expiration_date,
                revocation_date = excluded.revocation_date, revocation_percentage = excluded.revocation_percentage,
                is_upgraded = excluded.is_upgraded, ownership = excluded.ownership, app_account_token = excluded.app_account_token,
                signed_date = excluded.signed_date, payload = excluded.payload
            WHERE told_transactions.signed_date < excluded.signed_date
            """,
            .text(t.transactionID), .text(t.originalTransactionID), .text(t.productID), .text(t.environment),
            SQLValue(t.quantity), .real(t.purchaseDate), SQLValue(t.expirationDate), SQLValue(t.revocationDate),
            SQLValue(t.revocationPercentage), SQLValue(t.isUpgraded ? 1 : 0), .text(t.ownership), SQLValue(t.appAccountToken),
            .real(t.signedDate), .text(t.payload))
    }

    static let transactionColumns = """
        transaction_id, user_id, original_transaction_id, product_id, environment, quantity,
        purchase_date, expiration_date, revocation_date, signed_date, payload, revocation_percentage, is_upgraded,
        ownership, app_account_token
        """

    /// The told table's columns, in the order ``storedTransaction(_:)`` reads them (an empty user).
    private static let toldColumns = """
        transaction_id, '', original_transaction_id, product_id, environment, quantity,
        purchase_date, expiration_date, revocation_date, signed_date, payload, revocation_percentage, is_upgraded,
        ownership, app_account_token
        """

    public func transactions(of user: String) async throws -> [StoredTransaction] {
        try await database.transaction { session in
            try await session.run(
                "SELECT \(Self.transactionColumns) FROM transactions WHERE user_id = ? ORDER BY transaction_id", .text(user)
            ).map(Self.storedTransaction)
        }
    }

    public func lookUpTransaction(_ transactionID: String) async throws -> StoredTransaction? {
        try await database.transaction { session in
            try await session.run(
                "SELECT \(Self.transactionColumns) FROM transactions WHERE transaction_id = ?", .text(transactionID)
            ).first.map(Self.storedTransaction)
        }
    }

    public func holder(of transactionID: String, originalTransactionID: String, ownership: String) async throws -> String? {
        try await database.transaction { session in
            let held = try await session.run("SELECT user_id FROM transactions WHERE transaction_id = ?", .text(transactionID))
            if let user = try held.first?.text(0) { return user }
            let original = try await session.run(
                "SELECT user_id FROM transactions WHERE original_transaction_id = ? AND ownership = ? ORDER BY purchase_date LIMIT 1",
                .text(originalTransactionID), .text(ownership))
            return try original.first?.text(0)
        }
    }

    public func toldTransactions(for user: String, appAccountToken: String) async throws -> [StoredTransaction] {
        try await database.transaction { session in
            try await session.run(
                """
                SELECT \(Self.toldColumns) FROM told_transactions WHERE app_account_token = ?
                    OR (app_account_token IS NULL AND EXISTS (SELECT 1 FROM transactions
                        WHERE transactions.original_transaction_id = told_transactions.original_transaction_id
                        AND transactions.ownership = told_transactions.ownership AND transactions.user_id = ?))
                ORDER BY transaction_id
                """,
                .text(appAccountToken), .text(user)
            ).map(Self.storedTransaction)
        }
    }

    /// A row of ``transactionColumns`` (or of the told table's, whose user is empty).
    static func storedTransaction(_ row: SQLRow) throws -> StoredTransaction {
        StoredTransaction(
            transactionID: try row.text(0), user: try row.text(1), originalTransactionID: try row.text(2),
            productID: try row.text(3), environment: try row.text(4), quantity: try row.integer(5),
            purchaseDate: try row.real(6), expirationDate: try row.optionalReal(7), revocationDate: try row.optionalReal(8),
            revocationPercentage: try row.optionalInteger(11), isUpgraded: try row.integer(12) != 0, ownership: try row.text(13),
            appAccountToken: try row.optionalText(14), signedDate: try row.real(9), payload: try row.text(10))
    }
}
