/// A verified purchase kept in one database transaction: one commit, one
/// flush of the log, however many rows it touches.
extension SQLLedgerStorage {
    public func keep(_ effects: [LedgerEffect], for account: UserAccount) async throws -> TransactionWrite {
        guard case .transaction(let transaction) = effects.first else {
            throw StorageError.invalidArgument("a purchase's effects start with its transaction")
        }
        try Self.require(!account.user.isEmpty, "the user id is empty")
        try Self.require(transaction.user == account.user, "transaction '\(transaction.transactionID)' is for user '\(transaction.user)', not '\(account.user)'")
        try Self.check(transaction)
        for effect in effects.dropFirst() {
            switch effect {
            case .grant(let grant): try Self.check(grant)
            case .renewal(let renewal): try Self.check(renewal)
            case .transaction, .toldTransaction, .consumptionRequest, .revokeGrants, .reinstateGrants:
                throw StorageError.invalidArgument("a purchase has one transaction, its grants and what the App Store said of its subscription; not \(effect)")
            }
        }
        return try await database.transaction { session in
            try await session.run(
                "INSERT INTO users (user_id, app_account_token, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                .text(account.user), .text(account.appAccountToken), .real(transaction.signedDate))
            let (write, kept) = try await Self.keepVersion(transaction, in: session, settling: false)
            guard write != .ownedByAnotherUser else { return write }
            var granted = false
            var everyGrantNew = true
            for effect in effects.dropFirst() {
                switch effect {
                case .grant(let grant):
                    let new = try await Self.apply(grant, in: session, settling: false)
                    granted = granted || new
                    everyGrantNew = everyGrantNew && new
                case .renewal(let renewal): _ = try await Self.update(renewal, in: session)
                case .transaction, .toldTransaction, .consumptionRequest, .revokeGrants, .reinstateGrants: break
                }
            }
            // A new purchase that stands, whose grants are all new, has nothing taken back: settling it would
            // read and lock its rows for nothing (two statements of every purchase, docs/performance.md).
            let standingAndNew = write == .inserted && kept.revocationDate == nil && everyGrantNew
            // Otherwise once, after the transaction and its grants: a repeated post (nothing new) settles nothing.
            if !standingAndNew, granted || write != .unchanged { _ = try await Self.settle(transaction.transactionID, in: session) }
            return write
        }
    }
}
