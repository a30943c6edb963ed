public import StorekeeperCore

/// Why a payment was not sent to the store.
public enum PaymentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The product is not in the catalog.
    case unknownProduct(String, suggestion: String?)
    /// The quantity is outside 1 up to the product's `max-quantity`.
    case quantityOutOfRange(product: String, quantity: Int, maximum: Int)
    /// The payment names an offer the catalog does not declare for the
    /// product (`declared`: the identifiers it does declare, in its order).
    case undeclaredOffer(product: String, kind: OfferKind, id: String, declared: [String])
    /// The payment names an offer code: codes are redeemed in the App
    /// Store's sheet (`AppStore.presentOfferCodeRedeemSheet`), not bought.
    case offerCodeNotPurchasable(product: String, id: String)
    /// A promotional offer without the signature the app's server makes for it.
    case unsignedOffer(product: String, id: String)
    /// `start` has not been called: observers must be registered before any
    /// transaction can arrive.
    case notStarted

    /// What is wrong and what would be right.
    public var description: String {
        switch self {
        case .unknownProduct(let id, let suggestion):
            "no product '\(id)' in the catalog" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .quantityOutOfRange(let product, let quantity, let maximum):
            "quantity \(quantity) of \(product) is outside 1...\(maximum) (its max-quantity)"
        case .undeclaredOffer(let product, let kind, let id, let declared):
            "the catalog declares no \(kind.rawValue) offer '\(id)' for \(product); "
                + (declared.isEmpty ? "it declares no offers for it" : "its offers are " + declared.map { "'\($0)'" }.joined(separator: ", "))
        case .offerCodeNotPurchasable(let product, let id):
            "'\(id)' of \(product) is an offer code: the customer redeems it in the App Store's sheet "
                + "(AppStore.presentOfferCodeRedeemSheet), not through a payment"
        case .unsignedOffer(let product, let id):
            "the promotional offer '\(id)' of \(product) needs the signature your server made for it "
                + "(key id, nonce, timestamp and signature: PaymentOffer.promotional(_:signature:))"
        case .notStarted:
            "the queue has not started: call start(observers:) before adding payments"
        }
    }
}
