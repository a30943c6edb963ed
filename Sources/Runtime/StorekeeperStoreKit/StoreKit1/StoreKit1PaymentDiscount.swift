public import Foundation

/// A promotional offer's signed terms, as `SKPaymentDiscount` carries them
/// (https://developer.apple.com/documentation/storekit/skpaymentdiscount).
public struct StoreKit1PaymentDiscount: Sendable, Hashable {
    /// `identifier`: the offer's identifier.
    public var identifier: String
    /// `keyIdentifier`: the subscription key that signed it.
    public var keyIdentifier: String
    /// `nonce`.
    public var nonce: UUID
    /// `signature`: Base64, as the app's server returned it.
    public var signature: String
    /// `timestamp`: milliseconds since 1970.
    public var timestamp: Int

    /// Describes a discount.
    public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: Int) {
        self.identifier = identifier
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }
}
