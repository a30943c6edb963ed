import Foundation
import Hummingbird
import StorekeeperCore
import StorekeeperServerStorage

extension ServerRoutes {
    /// Keeps a verified transaction's effects for `user` (its
    /// ``TransactionEffects``): the transaction first, then its grants and
    /// subscription state, each idempotent in the database, so a post sent
    /// again changes nothing twice. Answers the transaction kept.
    ///
    /// A transaction the server keeps for another user follows
    /// ``ServerConfiguration/restoreByAnotherUser``: refused (403
    /// `owned-by-another-user`), or moved to `user` with what it granted.
    func keep(_ effects: [LedgerEffect], for user: String) async throws -> StoredTransaction {
        guard case .transaction(let stored) = effects.first else {
            throw APIError(.internalServerError, "internal", "the transaction had nothing to keep")
        }
        _ = try await storage.register(user: user, appAccountToken: AppAccountToken.derive(fromUser: user).uuidString.lowercased())
        // The transaction first: when it is another user's, nothing else may apply.
        if try await storage.keep(stored) == .ownedByAnotherUser {
            switch configuration.restoreByAnotherUser {
            case .keepWithOriginal:
                throw APIError(.forbidden, "owned-by-another-user", "transaction '\(stored.transactionID)' is kept for another user")
            case .transfer:
                guard let owner = try await storage.lookUpTransaction(stored.transactionID)?.user, owner != user,
                    try await storage.transfer(transactionID: stored.transactionID, from: owner, to: user)
                else { throw APIError.unavailable("transaction '\(stored.transactionID)' changed hands meanwhile; try again") }
                // The moved row may be older than what was posted.
                _ = try await storage.keep(stored)
            }
        }
        // What the ledger holds wins: an older, unrevoked copy of a refunded transaction grants nothing.
        let held = try await storage.lookUpTransaction(stored.transactionID)
        guard held?.revocationDate == nil || stored.revocationDate != nil else { return held ?? stored }
        for effect in effects.dropFirst() {
            switch effect {
            case .grant(let grant): _ = try await storage.apply(grant)
            case .subscription(let state): _ = try await storage.update(state)
            // A transaction makes none of these; notifications do.
            case .transaction, .consumptionRequest, .revokeGrants, .reinstateGrants: break
            }
        }
        return stored
    }
}
