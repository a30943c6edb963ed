public import Foundation
public import StorekeeperQueue

/// The part of StoreKit 2 the backend calls: `Product.purchase(options:)`,
/// `Transaction.updates`, `.unfinished`, `.currentEntitlements`,
/// `AppStore.sync()`, `Product.products(for:)` and `PurchaseIntent.intents`.
/// `AppleStoreKit2Store` calls Apple's StoreKit; a fake stands in for it in tests.
public protocol StoreKit2Store: Sendable {
    /// Buys a product (`Product.purchase(options:)` with `.quantity`, `.appAccountToken`
    /// and, for an offer, `.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    /// or `.winBackOffer(_:)`). An offer StoreKit cannot apply here throws
    /// (`invalidOffer`, or `unsupported` before iOS 18 for a win-back offer):
    /// never a purchase at full price.
    func purchase(productID: String, quantity: Int, appAccountToken: UUID?, offer: PaymentOffer?) async throws(StoreKit2Failure)
        -> StoreKit2PurchaseResult

    /// Transactions as they happen outside a purchase call: renewals, Ask to
    /// Buy approvals, purchases on other devices, refunds and revocations
    /// (`Transaction.updates`). Called once, when the backend is made, so that
    /// StoreKit's replay of unfinished transactions at launch is heard: the
    /// stream must keep what arrives until it is read.
    func updates() -> AsyncStream<StoreKit2Verification>

    /// The transactions the app has not finished (`Transaction.unfinished`).
    func unfinished() async -> [StoreKit2Verification]

    /// The latest transaction of each product the user is entitled to now (`Transaction.currentEntitlements`).
    func currentEntitlements() async -> [StoreKit2Verification]

    /// Brings the device's transactions up to date with the App Store, after
    /// asking the user to sign in (`AppStore.sync()`).
    func sync() async throws(StoreKit2Failure)

    /// The products the App Store sells, of those asked for (`Product.products(for:)`).
    func products(for ids: Set<String>) async throws(StoreKit2Failure) -> [any StoreKit2Product]

    /// The purchases the user started outside the app (a promoted in-app
    /// purchase in the App Store, or a win-back offer redeemed there), as
    /// they happen (`PurchaseIntent.intents`), each with the offer it
    /// carries; empty where StoreKit has none. Called once, when the backend is made.
    func purchaseIntents() -> AsyncStream<StoreKit2PurchaseIntent>
}
