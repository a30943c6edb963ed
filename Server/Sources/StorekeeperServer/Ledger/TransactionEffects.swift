public import Foundation
public import StorekeeperRuntime
public import StorekeeperServerStorage
public import StorekeeperVerification

/// What one verified App Store transaction does to its user's ledger, as the
/// catalog's compiled policy says: the transaction kept (once, by its id; its
/// newest signed version decides), and the balances its product grants (times
/// its quantity, once per transaction and balance, in its environment; none
/// for a family member's copy). A revoked version is kept too, and its grants
/// are applied and at once taken back by its refunded share, so that a later
/// reversal gives them back. A subscription's state is not kept: it is derived
/// when entitlements are read (``Entitlements``).
///
/// One function for every way a transaction arrives (`POST /v1/transactions`,
/// a notification's `signedTransactionInfo`, a purchase a receipt proves), so
/// that they cannot disagree.
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
        let stored = StoredTransaction(
            transactionID: id, user: user,
            originalTransactionID: transaction.originalTransactionID.flatMap { $0.isEmpty ? nil : $0 } ?? id,
            productID: productID, environment: transaction.environment.rawValue,
            quantity: max(1, Int(clamping: transaction.quantity ?? 1)),
            purchaseDate: purchaseDate.timeIntervalSince1970, expirationDate: transaction.expiresDate?.timeIntervalSince1970,
            revocationDate: transaction.revocationDate?.timeIntervalSince1970,
            revocationPercentage: transaction.revocationPercentage.map { min(max(Int(clamping: $0), 0), GrantRevocation.whole) },
            isUpgraded: transaction.isUpgraded ?? false,
            ownership: transaction.inAppOwnershipType.flatMap { $0.isEmpty ? nil : $0 } ?? StoredTransaction.purchased,
            appAccountToken: transaction.appAccountToken.flatMap { $0.isEmpty ? nil : $0.lowercased() },
            signedDate: signedDate.timeIntervalSince1970, payload: payload)
        return effects(of: stored, policy: policy, now: now)
    }

    /// The effects of `purchase`, which a receipt the App Store's
    /// `verifyReceipt` found valid in `environment` proves, for `user`.
    ///
    /// A receipt is not signed data: the transaction is kept with an empty
    /// payload, dated as of when Apple stated it (``ReceiptPurchase/statedDate``:
    /// the answer's `request_date_ms`, or the receipt's `receipt_creation_date_ms`
    /// for an entry of the receipt itself; its purchase date when the answer has
    /// neither; never after `now`), not as of `now`: a version Apple signs after
    /// that (a REFUND notification's, a later post of the signed transaction) is
    /// newer and wins, and proof of an old period is an old period's transaction,
    /// never newer than the periods Apple signed since.
    public static func effects(
        of purchase: ReceiptPurchase, environment: String, user: String, policy: CompiledPolicy, now: Date
    ) -> [LedgerEffect] {
        let stated = min(purchase.statedDate ?? purchase.purchaseDate, now)
        let stored = StoredTransaction(
            transactionID: purchase.transactionID, user: user, originalTransactionID: purchase.originalTransactionID,
            productID: purchase.productID, environment: environment, quantity: max(1, purchase.quantity),
            purchaseDate: purchase.purchaseDate.timeIntervalSince1970, expirationDate: purchase.expiresDate?.timeIntervalSince1970,
            revocationDate: purchase.cancellationDate?.timeIntervalSince1970, appAccountToken: purchase.appAccountToken?.lowercased(),
            signedDate: stated.timeIntervalSince1970, payload: "")
        return effects(of: stored, policy: policy, now: now)
    }

    /// The effects of a transaction as it will be kept: the transaction, then the grants of a
    /// purchase (a family member's copy grants no balance: a balance is the purchaser's).
    static func effects(of stored: StoredTransaction, policy: CompiledPolicy, now: Date) -> [LedgerEffect] {
        var effects: [LedgerEffect] = [.transaction(stored)]
        guard stored.ownership == StoredTransaction.purchased, let handle = policy.product(id: stored.productID) else { return effects }
        for grant in policy.product(handle).grants {
            let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: stored.quantity)
            effects.append(
                .grant(
                    Grant(
                        user: stored.user, transactionID: stored.transactionID, balance: grant.balance, amount: overflow ? Int.max : amount,
                        environment: stored.environment, refundedSpends: policy.refundedSpendPolicy)))
        }
        return effects
    }
}
