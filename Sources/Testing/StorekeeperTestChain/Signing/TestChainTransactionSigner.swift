import StorekeeperQueue
public import StorekeeperSimulatedStore

/// Signs the simulated store's transactions with a ``TestCertificateChain``:
/// give it to `SimulatedAppStore` through `TransactionSigning`, and every
/// purchased, restored and renewed transaction the store delivers carries a
/// `signedTransaction` that Apple's verifiers accept with the chain's root.
///
/// ```swift
/// let chain = try TestCertificateChain()
/// let signing = TransactionSigning(signer: TestChainTransactionSigner(chain: chain), bundleID: "com.example.app")
/// let store = SimulatedAppStore(policy: policy, seed: 1, clock: clock, signing: signing)
/// ```
public struct TestChainTransactionSigner: TransactionSigner {
    /// Signs the payloads.
    public let signer: SignedDataSigner
    /// The payloads' `storefront` (default `USA`).
    public var storefront: String
    /// The payloads' `storefrontId` (default `143441`, the United States').
    public var storefrontID: String
    /// Each product's `price` in milliunits of ``currency``; a product not
    /// listed has no price in its payload.
    public var prices: [String: Int]
    /// The payloads' `currency` when they have a price (default `USD`).
    public var currency: String

    /// A signer with `chain`'s leaf, in the United States storefront.
    public init(chain: TestCertificateChain, storefront: String = "USA", storefrontID: String = "143441",
                prices: [String: Int] = [:], currency: String = "USD") {
        signer = SignedDataSigner(chain: chain)
        self.storefront = storefront
        self.storefrontID = storefrontID
        self.prices = prices
        self.currency = currency
    }

    /// The transaction `facts` describe, signed.
    public func signedTransaction(for facts: SignedTransactionFacts) throws -> String {
        try signer.sign(payload(for: facts).json)
    }

    /// The payload `facts` describe.
    ///
    /// An auto-renewable subscription's `webOrderLineItemId` is derived from
    /// the transaction's identifier (`1` before it); a refund states
    /// `revocationReason` 0 (refunded for another reason); a revocation when
    /// family sharing stopped states the ownership `FAMILY_SHARED` and no reason.
    public func payload(for facts: SignedTransactionFacts) -> TransactionPayload {
        let type = AppStoreProductType(facts.productType)
        let isSubscription = type == .autoRenewableSubscription || type == .nonRenewingSubscription
        let price = prices[facts.productID]
        return TransactionPayload(
            transactionID: facts.transactionID, originalTransactionID: facts.originalTransactionID,
            webOrderLineItemID: type == .autoRenewableSubscription ? "1\(facts.transactionID)" : nil, bundleID: facts.bundleID,
            productID: facts.productID, subscriptionGroupIdentifier: isSubscription ? facts.subscriptionGroup : nil,
            purchaseDate: facts.purchaseDate, originalPurchaseDate: facts.originalPurchaseDate, expiresDate: facts.expirationDate,
            quantity: facts.quantity, type: type, appAccountToken: facts.appAccountToken,
            ownership: facts.revocation?.reason == .familySharing ? .familyShared : .purchased, signedDate: facts.signedDate,
            revocationReason: facts.revocation?.reason == .refund ? .otherReason : nil, revocationDate: facts.revocation?.date,
            environment: facts.environment, reason: facts.kind == .renewal ? .renewal : .purchase, storefront: storefront,
            storefrontID: storefrontID, price: price, currency: price == nil ? nil : currency)
    }
}
