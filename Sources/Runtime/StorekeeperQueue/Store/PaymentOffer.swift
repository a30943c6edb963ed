public import Foundation
public import StorekeeperCore

/// A subscription offer a payment redeems: a promotional or win-back offer
/// the catalog declares for the product (`offers`). The queue refuses one
/// the catalog does not declare (``PaymentError/undeclaredOffer(product:kind:id:declared:)``)
/// before the store is asked. An introductory offer is never named: the
/// App Store applies it by itself to a customer who is eligible.
///
/// Whether the customer is eligible, and the signature of a promotional
/// offer, are not decided here: the app's server signs the offer
/// (https://developer.apple.com/documentation/storekit/generating-a-signature-for-promotional-offers)
/// and the payment carries what it returned.
public struct PaymentOffer: Sendable, Hashable {
    /// What the app's server returned for a promotional offer: the fields of
    /// StoreKit 2's `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    /// (https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:))
    /// and StoreKit 1's `SKPaymentDiscount`
    /// (https://developer.apple.com/documentation/storekit/skpaymentdiscount).
    public struct Signature: Sendable, Hashable {
        /// The identifier of the subscription key (App Store Connect) that signed it.
        public var keyID: String
        /// The one-time value signed with the offer.
        public var nonce: UUID
        /// When it was signed, in milliseconds since 1970 (UNIX epoch time).
        public var timestamp: Int
        /// The signature itself (the bytes of the Base64 string the server returns).
        public var signature: Data

        /// Describes a signature the app's server made.
        public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
            self.keyID = keyID
            self.nonce = nonce
            self.timestamp = timestamp
            self.signature = signature
        }
    }

    /// Promotional or win-back (an offer code is redeemed in the App Store's
    /// sheet, never bought with a payment: the queue refuses one).
    public var kind: OfferKind
    /// The offer identifier, as in the catalog and App Store Connect.
    public var id: String
    /// A promotional offer's signature; nil for a win-back offer.
    public var signature: Signature?

    /// Describes an offer.
    public init(kind: OfferKind, id: String, signature: Signature? = nil) {
        self.kind = kind
        self.id = id
        self.signature = signature
    }

    /// A promotional offer, with the signature the app's server made for it.
    public static func promotional(_ id: String, signature: Signature) -> PaymentOffer {
        PaymentOffer(kind: .promotional, id: id, signature: signature)
    }

    /// A win-back offer (StoreKit 2, iOS 18 and later).
    public static func winBack(_ id: String) -> PaymentOffer {
        PaymentOffer(kind: .winBack, id: id)
    }
}
