import Foundation
import Hummingbird
import StorekeeperContract
import StorekeeperCore
import StorekeeperServerStorage

extension ServerRoutes {
    /// Keeps a verified transaction's effects for `user` (its
    /// ``TransactionEffects``) in one database transaction: the user
    /// registered, the transaction (its newest version, a notification's
    /// included), then its grants, each idempotent in the database, so a post
    /// sent again changes nothing twice, and an older copy of a refunded
    /// purchase grants nothing. (What notifications told of this user's other
    /// purchases is kept for the user when the user next reads or spends:
    /// ``keepToldTransactions(of:)``, off the purchase's path.) Answers the
    /// transaction kept.
    ///
    /// A transaction the server keeps for another user (the transaction, or,
    /// without an `appAccountToken`, its original transaction: ownership follows
    /// the original) follows ``ServerConfiguration/restoreByAnotherUser``:
    /// refused (403 `owned-by-another-user`), or the whole purchase moved to
    /// `user` with what its grants are worth.
    func keep(_ effects: [LedgerEffect], for user: String) async throws -> StoredTransaction {
        guard case .transaction(let stored) = effects.first else {
            throw APIError(.internalServerError, .internal, "the transaction had nothing to keep")
        }
        let account = Self.account(of: user)
        guard try await storage.keep(effects, for: account) == .ownedByAnotherUser else { return stored }
        switch configuration.restoreByAnotherUser {
        case .keepWithOriginal:
            throw APIError(.forbidden, .ownedByAnotherUser, "transaction '\(stored.transactionID)' is kept for another user")
        case .transfer:
            guard let owner = try await storage.holder(
                    of: stored.transactionID, originalTransactionID: stored.originalTransactionID, ownership: stored.ownership),
                owner != user,
                try await storage.transfer(originalTransactionID: stored.originalTransactionID, from: owner, to: user),
                try await storage.keep(effects, for: account) != .ownedByAnotherUser
            else { throw APIError.unavailable("transaction '\(stored.transactionID)' changed hands meanwhile; try again") }
            return stored
        }
    }

    /// Keeps for `user` the transactions notifications told while nobody held them that are
    /// `user`'s now (their `appAccountToken` is the user's, or `user` holds their original
    /// transaction), with their grants: a purchase is applied once its user is known, whatever
    /// arrived first. Cheap when there are none (one indexed query).
    func keepToldTransactions(of user: String) async throws {
        let account = Self.account(of: user)
        for var told in try await storage.toldTransactions(for: user, appAccountToken: account.appAccountToken) {
            told.user = user
            _ = try await storage.keep(TransactionEffects.effects(of: told, policy: configuration.policy, now: now()), for: account)
        }
    }

    /// `user`'s account: the user and the `appAccountToken` derived from the user id.
    static func account(of user: String) -> UserAccount {
        UserAccount(user: user, appAccountToken: AppAccountToken.derive(fromUser: user).uuidString.lowercased())
    }
}
