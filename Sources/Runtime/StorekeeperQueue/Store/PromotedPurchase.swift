/// A purchase the user started outside the app: a promoted in-app purchase
/// (or a win-back offer) chosen on the App Store, which StoreKit hands the
/// app to complete (StoreKit 2's `PurchaseIntent`,
/// https://developer.apple.com/documentation/storekit/purchaseintent;
/// StoreKit 1's `paymentQueue(_:shouldAddStorePayment:for:)`,
/// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:shouldaddstorepayment:for:)).
///
/// A backend sends it to the queue as ``StoreEvent/promoted(_:)``; the queue
/// checks its payment as it checks one the app adds (``PaymentError``), asks
/// the app (``QueueConfiguration/promotedPurchases``), and buys it only then.
public struct PromotedPurchase: Sendable, Hashable {
    /// What to buy: the product, the quantity, the user the backend knows,
    /// and the offer the user redeemed, if any.
    public var payment: Payment

    /// Describes a promoted purchase.
    public init(payment: Payment) {
        self.payment = payment
    }
}

/// What the app wants done with a ``PromotedPurchase``.
public enum PromotedPurchaseDecision: Sendable, Hashable {
    /// Buy it now (the default): the payment goes to the store as if the app had added it.
    case buyNow
    /// Not now: nothing is bought. The app keeps the promoted purchase and
    /// passes its ``PromotedPurchase/payment`` to `TransactionQueue.add(_:)`
    /// when it is ready (after onboarding, say), or drops it to decline.
    /// Apple: "Return false to defer or cancel the transaction. If you return
    /// false, you can continue the transaction later".
    case later
}
