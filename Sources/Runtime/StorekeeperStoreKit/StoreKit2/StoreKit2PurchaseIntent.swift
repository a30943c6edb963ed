public import StorekeeperQueue

/// A purchase the customer started outside the app, as `PurchaseIntent`
/// gives it (https://developer.apple.com/documentation/storekit/purchaseintent):
/// the product, and the offer redeemed with it.
public struct StoreKit2PurchaseIntent: Sendable, Hashable {
    /// `product.id`.
    public var productID: String
    /// `offer` (iOS 18, macOS 15): "The system populates this value if the
    /// customer redeems a winBack offer type outside of your app. Add this
    /// offer to the purchase options"
    /// (https://developer.apple.com/documentation/storekit/purchaseintent/offer):
    /// a win-back offer, by its id; nil for a plain promoted purchase.
    public var offer: PaymentOffer?

    /// Describes a purchase intent.
    public init(productID: String, offer: PaymentOffer? = nil) {
        self.productID = productID
        self.offer = offer
    }
}
