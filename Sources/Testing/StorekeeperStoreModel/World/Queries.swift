import Foundation
public import StorekeeperTestChain

extension StoreWorld {
    /// The ids of the transactions `appleID` has (bought or family-shared), oldest first.
    public func transactionIDs(of appleID: String) -> [String] { byAppleID[appleID] ?? [] }

    /// The ids of the transactions app account `account` holds, oldest first.
    public func transactionIDs(heldBy account: String) -> [String] { heldBy[account] ?? [] }

    /// Subscriptions a driver can act on: bought (not family-shared copies), sorted by original transaction id.
    public var purchasedSubscriptions: [Subscription] {
        subscriptions.values.filter { $0.sharedFrom == nil }.sorted { $0.originalTransactionID < $1.originalTransactionID }
    }
}

extension StoreModel {
    /// The subscription's renewal information now, as StoreKit's `Product.SubscriptionInfo.Status` and the App
    /// Store Server API would give it (`JWSRenewalInfoDecodedPayload`); nil for an unknown original transaction id.
    /// Source: https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct
    public func renewalInfo(originalTransactionID: String) -> RenewalInfoPayload? {
        world.subscriptions[originalTransactionID].map { renewalInfo(of: $0) }
    }

    /// ``renewalInfo(originalTransactionID:)`` signed by the configuration's signer.
    public func signedRenewalInfo(originalTransactionID: String) throws(StoreModelError) -> String? {
        guard let renewal = renewalInfo(originalTransactionID: originalTransactionID) else { return nil }
        do { return try configuration.signer.sign(renewal.json) } catch { throw StoreModelError("signing renewal info failed: \(error)") }
    }
}
