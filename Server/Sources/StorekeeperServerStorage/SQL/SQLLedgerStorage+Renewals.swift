/// What the App Store said of each subscription, by original transaction id:
/// its status and its renewal info, each part replaced only by a newer signed one.
extension SQLLedgerStorage {
    public func update(_ renewal: SubscriptionRenewal) async throws -> Bool {
        try Self.check(renewal)
        return try await database.transaction { try await Self.update(renewal, in: $0) }
    }

    /// One row per subscription, made by the first part told; then each part by a conditional `UPDATE`.
    static func update(_ renewal: SubscriptionRenewal, in session: any SQLSession) async throws -> Bool {
        let r = renewal
        // A status without its signing date, or renewal info without its own, cannot be ordered: not kept.
        let status = r.statusSignedDate == nil ? nil : r.status
        let renewalSigned = r.renewalSignedDate
        guard status != nil || renewalSigned != nil else { return false }
        let inserted = try await session.run(
            """
            INSERT INTO subscription_renewals (original_transaction_id, status, status_signed_date, grace_period_expires_date,
                renewal_signed_date) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING original_transaction_id
            """,
            .text(r.originalTransactionID), SQLValue(status), status == nil ? .null : SQLValue(r.statusSignedDate),
            renewalSigned == nil ? .null : SQLValue(r.gracePeriodExpiresDate), SQLValue(renewalSigned))
        if !inserted.isEmpty { return true }
        var changed = false
        if let status, let signed = r.statusSignedDate {
            changed = try await !session.run(
                """
                UPDATE subscription_renewals SET status = ?, status_signed_date = ?
                WHERE original_transaction_id = ? AND (status_signed_date IS NULL OR status_signed_date < ?)
                RETURNING original_transaction_id
                """,
                SQLValue(status), .real(signed), .text(r.originalTransactionID), .real(signed)
            ).isEmpty
        }
        if let signed = renewalSigned {
            let renewed = try await !session.run(
                """
                UPDATE subscription_renewals SET grace_period_expires_date = ?, renewal_signed_date = ?
                WHERE original_transaction_id = ? AND (renewal_signed_date IS NULL OR renewal_signed_date < ?)
                RETURNING original_transaction_id
                """,
                SQLValue(r.gracePeriodExpiresDate), .real(signed), .text(r.originalTransactionID), .real(signed)
            ).isEmpty
            changed = changed || renewed
        }
        return changed
    }

    public func renewals(of user: String) async throws -> [SubscriptionRenewal] {
        try await database.transaction { session in
            try await session.run(
                """
                SELECT original_transaction_id, status, status_signed_date, grace_period_expires_date, renewal_signed_date
                FROM subscription_renewals WHERE original_transaction_id IN
                    (SELECT original_transaction_id FROM transactions WHERE user_id = ?)
                ORDER BY original_transaction_id
                """, .text(user)
            ).map { row in
                SubscriptionRenewal(
                    originalTransactionID: try row.text(0), status: try row.optionalInteger(1), statusSignedDate: try row.optionalReal(2),
                    gracePeriodExpiresDate: try row.optionalReal(3), renewalSignedDate: try row.optionalReal(4))
            }
        }
    }
}
