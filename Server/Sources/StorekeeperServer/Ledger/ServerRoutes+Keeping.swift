import Foundation
import Hummingbird
import StorekeeperCore
import StorekeeperServerStorage

extension ServerRoutes {
    /// Keeps a verified transaction's effects for `user` (its
    /// ``TransactionEffects``) in one database transaction: the user
    /// registered, the transaction, then its grants and subscription state,
    /// each idempotent in the database, so a post sent again changes nothing
    /// twice, and an older copy of a refunded purchase grants nothing.
    /// Answers the transaction kept.
    ///
    /// A transaction the server keeps for another user follows
    /// ``ServerConfiguration/restoreByAnotherUser``: refused (403
    /// `owned-by-another-user`), or moved to `user` with what it granted.
    func keep(_ effects: [LedgerEffect], for user: String) async throws -> StoredTransaction {
        guard case .transaction(let stored) = effects.first else {
            throw APIError(.internalServerError, "internal", "the transaction had nothing to keep")
        }
        let account = UserAccount(user: user, appAccountToken: AppAccountToken.derive(fromUser: user).uuidString.lowercased())
        guard try await storage.keep(effects, for: account) == .ownedByAnotherUser else { return stored }
        switch configuration.restoreByAnotherUser {
        case .keepWithOriginal:
            throw APIError(.forbidden, "owned-by-another-user", "transaction '\(stored.transactionID)' is kept for another user")
        case .transfer:
            guard let owner = try await storage.lookUpTransaction(stored.transactionID)?.user, owner != user,
                try await storage.transfer(transactionID: stored.transactionID, from: owner, to: user),
                try await storage.keep(effects, for: account) != .ownedByAnotherUser
            else { throw APIError.unavailable("transaction '\(stored.transactionID)' changed hands meanwhile; try again") }
            return stored
        }
    }
}
