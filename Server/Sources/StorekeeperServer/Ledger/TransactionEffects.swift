import Foundation
import StorekeeperRuntime
import StorekeeperServerStorage
import StorekeeperVerification

/// What one verified App Store transaction does to its user's ledger, as the
/// catalog's compiled policy says: the transaction kept (once, by its id), the
/// balances its product grants (times its quantity, once per transaction and
/// balance, none when it is revoked) and, for an auto-renewable
/// subscription, the subscription's state.
///
/// One function for every way a transaction arrives (`POST /v1/transactions`,
/// a notification's `signedTransactionInfo`), so that they cannot disagree.
public enum TransactionEffects {
    /// Why a verified transaction cannot be kept.
    public struct Incomplete: Error, Sendable, Hashable, CustomStringConvertible {
        /// The field the App Store's payload lacks.
        public var field: String
        public var description: String { "the signed transaction has no \(field)" }
    }

    /// The effects of `transaction`, signed as `payload`, for `user`, at `now`.
    ///
    /// A product the policy does not name is still kept (the App Store sold
    /// it for this app), and grants nothing.
    public static func effects(
        of transaction: VerifiedTransaction, payload: String, user: String, policy: CompiledPolicy, now: Date
    ) throws(Incomplete) -> [LedgerEffect] {
        guard let id = transaction.transactionID, !id.isEmpty else { throw Incomplete(field: "transactionId") }
        guard let productID = transaction.productID, !productID.isEmpty else { throw Incomplete(field: "productId") }
        guard let purchaseDate = transaction.purchaseDate else { throw Incomplete(field: "purchaseDate") }
        guard let signedDate = transaction.signedDate else { throw Incomplete(field: "signedDate") }
        let original = transaction.originalTransactionID.flatMap { $0.isEmpty ? nil : $0 } ?? id
        let quantity = max(1, Int(clamping: transaction.quantity ?? 1))
        let stored = StoredTransaction(
            transactionID: id, user: user, originalTransactionID: original, productID: productID,
            environment: transaction.environment.rawValue, quantity: quantity,
            purchaseDate: purchaseDate.timeIntervalSince1970,
            expirationDate: transaction.expiresDate?.timeIntervalSince1970,
            revocationDate: transaction.revocationDate?.timeIntervalSince1970,
            signedDate: signedDate.timeIntervalSince1970, payload: payload)
        var effects: [LedgerEffect] = [.transaction(stored)]
        guard let handle = policy.product(id: productID) else { return effects }
        let product = policy.product(handle)
        if transaction.revocationDate == nil {
            for grant in product.grants {
                let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: quantity)
                effects.append(.grant(Grant(user: user, transactionID: id, balance: grant.balance, amount: overflow ? Int.max : amount)))
            }
        }
        if product.type == .autoRenewableSubscription {
            let status: SubscriptionState.Status =
                if transaction.revocationDate != nil { .revoked }
                else if let expires = transaction.expiresDate, expires <= now { .expired }
                else { .active }
            effects.append(
                .subscription(
                    SubscriptionState(
                        originalTransactionID: original, user: user, productID: productID, status: status,
                        expirationDate: transaction.expiresDate?.timeIntervalSince1970,
                        signedDate: signedDate.timeIntervalSince1970)))
        }
        return effects
    }
}
