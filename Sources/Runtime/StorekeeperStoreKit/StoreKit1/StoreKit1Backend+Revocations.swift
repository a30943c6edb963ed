import Foundation
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperCore

/// Purchases the App Store takes back, which StoreKit 1 reports by product.
extension StoreKit1Backend {
    /// `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: the
    /// user is no longer entitled to these products, because Family Sharing
    /// changed or the purchaser was refunded
    /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)).
    ///
    /// StoreKit names products, not transactions, so the backend decides
    /// which transactions the queue takes back:
    /// - **Candidates**: the product's transactions this device holds, those
    ///   delivered purchased or restored in this process and those the
    ///   receipt on the device lists (what earlier launches delivered).
    /// - **Checked against a refreshed receipt** (`SKReceiptRefreshRequest`,
    ///   the one time the backend refreshes by itself: StoreKit has just
    ///   spoken for the user's account). Each purchase it lists as canceled
    ///   (field 1712) is revoked alone, as everywhere. A candidate it no
    ///   longer lists at all, under its own identifier or its original's
    ///   (field 1705), is revoked as taken back from Family Sharing. A
    ///   candidate it still lists stands: a refund of one subscription period
    ///   does not take the others back.
    /// - **When the refresh fails** (offline, the user declined to sign in),
    ///   every candidate is revoked: StoreKit said the user is no longer
    ///   entitled to the product, and nothing finer can be known.
    /// - **Consumables** are never revoked here: they cannot be shared with
    ///   the family, and a receipt lists one only until it is finished, so
    ///   its absence proves nothing (a consumable's refund reaches the app's
    ///   server, as the App Store Server Notification `REFUND`).
    ///
    /// The observer calls this in a task of its own: the refresh waits on the App Store.
    public func didRevokeEntitlements(forProductIdentifiers productIDs: [String]) async {
        let before = receipt.receiptBytes().flatMap { try? AppReceiptPayload(receipt: $0) }
        var refreshed: AppReceiptPayload?
        do {
            try await receipt.refresh()
            refreshed = readReceipt()
        } catch {
            refreshed = nil
        }
        let now = Date()
        withState { state in
            var events: [StoreEvent] = []
            var named: Set<String> = []
            for productID in productIDs where named.insert(productID).inserted {
                if let handle = policy.product(id: productID), policy.product(handle).type == .consumable { continue }
                let held = state.completed[productID] ?? []
                let taken = Self.revokedTransactions(of: productID, held: held, before: before, refreshed: refreshed)
                    .filter { !state.reportedCancellations.contains($0) }
                if taken.isEmpty { continue }
                let ids = Self.withRestores(taken) { id in
                    held.first { $0.id == id }?.originalID ?? before?.originalTransactionIDs[id] ?? refreshed?.originalTransactionIDs[id]
                }
                events.append(.revoked(StoreRevocation(productID: productID, transactionIDs: ids, reason: .familySharing, date: now)))
            }
            if !events.isEmpty { state.deliver(events) }
        }
    }

    /// The identifiers a revocation of `ids` sends: each, then the restore
    /// keys the queue may know its restores by (a restore of it, and for a
    /// restore or renewal the receipt lists with an original, a restore of
    /// that original): a restore delivered on this device, in this launch or
    /// an earlier one, goes with what it restored. An identifier the queue
    /// never saw revokes nothing.
    static func withRestores(_ ids: [String], original: (String) -> String?) -> [String] {
        var all: [String] = []
        for id in ids {
            var these = [id]
            if !id.hasPrefix(StoreKit1TransactionRegistry.restorePrefix) { these.append(StoreKit1TransactionRegistry.restoreKey(of: id)) }
            if let original = original(id) { these.append(StoreKit1TransactionRegistry.restoreKey(of: original)) }
            for each in these where !all.contains(each) { all.append(each) }
        }
        return all
    }

    /// Which of the product's transactions a revocation takes back: see
    /// ``didRevokeEntitlements(forProductIdentifiers:)``. A pure function of
    /// what was delivered and the receipts before and after the refresh
    /// (nil after: the refresh failed).
    static func revokedTransactions(of productID: String, held: [StoreKit1HeldTransaction], before: AppReceiptPayload?,
                                    refreshed: AppReceiptPayload?) -> [String] {
        var candidates = held
        for entry in before?.entries ?? [] where entry.productID == productID && !candidates.contains(where: { $0.id == entry.transactionID }) {
            candidates.append(StoreKit1HeldTransaction(id: entry.transactionID, originalID: before?.originalTransactionIDs[entry.transactionID]))
        }
        guard let refreshed else { return candidates.map(\.id) }
        var listed: Set<String> = []
        for entry in refreshed.entries where entry.productID == productID {
            listed.insert(entry.transactionID)
            if let original = refreshed.originalTransactionIDs[entry.transactionID] { listed.insert(original) }
        }
        return candidates.filter { candidate in
            let original = candidate.originalID ?? before?.originalTransactionIDs[candidate.id] ?? refreshed.originalTransactionIDs[candidate.id]
            return !listed.contains(candidate.id) && !(original.map(listed.contains) ?? false)
        }.map(\.id)
    }
}
