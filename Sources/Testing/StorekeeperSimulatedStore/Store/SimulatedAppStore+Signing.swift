import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

extension SimulatedAppStore {
    /// Signs the transactions delivered from now on with `signing`, or stops
    /// signing them (nil). Purchased, restored and renewed transactions then
    /// carry `TransactionInfo.signedTransaction`, as StoreKit 2's
    /// `jwsRepresentation`; others (purchasing, deferred, failed) never do.
    public func setSigning(_ signing: TransactionSigning?) {
        self.signing = signing
    }

    /// What the queue receives for `record`: signed when the store signs and
    /// the transaction is one StoreKit 2 would hand the app.
    ///
    /// - Parameter original: the purchase `record` belongs to (itself for a purchase).
    func storeTransaction(_ record: StoreRecord, original: StoreRecord) -> StoreTransaction {
        var delivered = record.storeTransaction
        guard let signing, record.state == .purchased || record.state == .restored else { return delivered }
        guard let product = policy.product(id: record.productID).map({ policy.product($0) }) else {
            // Its type and group are the catalog's; a product the catalog lacks has none to state.
            recorder.record(.note("\(record.id) \(record.productID) delivered unsigned: the catalog has no product \(record.productID)"))
            return delivered
        }
        let facts = SignedTransactionFacts(
            transactionID: record.id, originalTransactionID: original.id, productID: record.productID, productType: product.type,
            subscriptionGroup: product.subscription?.group, kind: kind(of: record), purchaseDate: record.purchaseDate,
            originalPurchaseDate: original.purchaseDate, expirationDate: record.expirationDate, signedDate: clock.now,
            quantity: record.quantity, applicationUsername: record.user, appAccountToken: record.user.flatMap(signing.appAccountToken),
            revocation: record.revocation, environment: signing.environment, bundleID: signing.bundleID)
        do {
            delivered.info.signedTransaction = try signing.signer.signedTransaction(for: facts)
        } catch {
            recorder.record(.note("\(record.id) \(record.productID) delivered unsigned: the signer failed: \(error)"))
        }
        return delivered
    }

    private func kind(of record: StoreRecord) -> SignedTransactionFacts.Kind {
        switch record.kind {
        case .purchase: .purchase
        case .renewal: .renewal
        case .restore: .restore
        }
    }
}
