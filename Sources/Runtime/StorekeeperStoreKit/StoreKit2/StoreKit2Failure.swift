public import StorekeeperCore

/// An error StoreKit 2 threw (`StoreKitError`, `Product.PurchaseError`),
/// named by its case, with StoreKit's description.
public struct StoreKit2Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cases of `StoreKitError` and `Product.PurchaseError` the backend tells apart.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `StoreKitError.userCancelled`.
        case userCancelled = "user-cancelled"
        /// `StoreKitError.networkError`.
        case networkError = "network-error"
        /// `StoreKitError.systemError`.
        case systemError = "system-error"
        /// `StoreKitError.notAvailableInStorefront`.
        case notAvailableInStorefront = "not-available-in-storefront"
        /// `StoreKitError.notEntitled`: the app lacks the entitlement for the request.
        case notEntitled = "not-entitled"
        /// `StoreKitError.unsupported`: not possible on this device or platform.
        case unsupported
        /// `StoreKitError.unknown`, or an error this version does not know.
        case unknown
        /// `Product.PurchaseError.invalidQuantity`.
        case invalidQuantity = "invalid-quantity"
        /// `Product.PurchaseError.productUnavailable`.
        case productUnavailable = "product-unavailable"
        /// `Product.PurchaseError.purchaseNotAllowed`.
        case purchaseNotAllowed = "purchase-not-allowed"
        /// `Product.PurchaseError.ineligibleForOffer`, `.invalidOfferIdentifier`,
        /// `.invalidOfferPrice`, `.invalidOfferSignature`, `.missingOfferParameters`.
        case invalidOffer = "invalid-offer"
    }

    /// Which error it was.
    public var kind: Kind
    /// StoreKit's description of it.
    public var message: String

    /// Describes an error StoreKit threw.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The store error a failed transaction carries for it: the code the
    /// plans are written against (the original payment queue's `SKError`
    /// names the same failures).
    public var code: StoreErrorCode {
        switch kind {
        case .userCancelled: .paymentCancelled
        case .networkError: .networkError
        case .systemError, .unknown: .unknown
        case .notAvailableInStorefront, .productUnavailable: .productNotAvailable
        case .notEntitled, .unsupported: .clientInvalid
        case .invalidQuantity, .invalidOffer: .paymentInvalid
        case .purchaseNotAllowed: .paymentNotAllowed
        }
    }

    /// Whether asking again later may succeed: the network, or StoreKit itself, failed.
    public var isTransient: Bool {
        switch kind {
        case .networkError, .systemError, .unknown: true
        default: false
        }
    }

    /// `network-error: The Internet connection appears to be offline.`
    public var description: String { "\(kind.rawValue): \(message)" }
}
