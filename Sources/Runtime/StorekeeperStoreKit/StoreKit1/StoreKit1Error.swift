public import StorekeeperCore

/// An error StoreKit 1 reported (an `NSError`): its domain, code and message.
public struct StoreKit1Error: Error, Sendable, Hashable {
    /// StoreKit's own domain, `SKErrorDomain`.
    package static let storeKitDomain = "SKErrorDomain"
    /// Foundation's URL loading domain, `NSURLErrorDomain`: a network failure.
    package static let urlDomain = "NSURLErrorDomain"

    /// The error's domain.
    package var domain: String
    /// The error's code in its domain (`SKError.Code`'s raw value in `SKErrorDomain`).
    public var code: Int
    /// The error's localized description, for logs and messages.
    public var message: String

    /// Describes an error.
    package init(domain: String, code: Int, message: String = "") {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// The queue's store error for it (the plan of a `failed` transaction
    /// depends on it). `SKError.Code` by raw value, as Apple's documentation
    /// of `SKError.Code` lists them:
    ///
    /// | `SKError.Code` | raw | `StoreErrorCode` | why |
    /// |---|---|---|---|
    /// | `unknown` | 0 | `unknown` | |
    /// | `clientInvalid` | 1 | `client-invalid` | |
    /// | `paymentCancelled` | 2 | `payment-cancelled` | |
    /// | `paymentInvalid` | 3 | `payment-invalid` | |
    /// | `paymentNotAllowed` | 4 | `payment-not-allowed` | |
    /// | `storeProductNotAvailable` | 5 | `product-not-available` | |
    /// | `cloudServicePermissionDenied` | 6 | `cloud-service-permission-denied` | |
    /// | `cloudServiceNetworkConnectionFailed` | 7 | `cloud-service-network-connection-failed` | |
    /// | `cloudServiceRevoked` | 8 | `cloud-service-revoked` | |
    /// | `privacyAcknowledgementRequired` | 9 | `payment-not-allowed` | the user cannot pay until they accept Apple's privacy policy |
    /// | `unauthorizedRequestData` | 10 | `client-invalid` | the app asked for what it is not entitled to |
    /// | `invalidOfferIdentifier` | 11 | `payment-invalid` | a payment parameter (the offer) was refused |
    /// | `invalidSignature` | 12 | `payment-invalid` | the offer's signature was refused |
    /// | `missingOfferParams` | 13 | `payment-invalid` | the offer's parameters were missing |
    /// | `invalidOfferPrice` | 14 | `payment-invalid` | the offer's price was refused |
    /// | `overlayCancelled` | 15 | `payment-cancelled` | the user dismissed it |
    /// | `overlayInvalidConfiguration` | 16 | `client-invalid` | the app's request was wrong |
    /// | `overlayTimeout` | 17 | `unknown` | |
    /// | `ineligibleForOffer` | 18 | `payment-invalid` | the offer does not apply to this user |
    /// | `unsupportedPlatform` | 19 | `client-invalid` | not possible on this device |
    /// | `overlayPresentedInBackgroundScene` | 20 | `client-invalid` | the app's request was wrong |
    /// | any other code | | `unknown` | a code newer than this table |
    ///
    /// An error in `NSURLErrorDomain` is `network-error` (StoreKit 1 has no
    /// code of its own for a network failure); any other domain is `unknown`.
    public var storeErrorCode: StoreErrorCode {
        switch domain {
        case Self.urlDomain: return .networkError
        case Self.storeKitDomain: return Self.storeErrorCode(forSKErrorCode: code)
        default: return .unknown
        }
    }

    /// The table above, for a code in `SKErrorDomain`.
    static func storeErrorCode(forSKErrorCode code: Int) -> StoreErrorCode {
        switch code {
        case 1, 10, 16, 19, 20: .clientInvalid
        case 2, 15: .paymentCancelled
        case 3, 11, 12, 13, 14, 18: .paymentInvalid
        case 4, 9: .paymentNotAllowed
        case 5: .productNotAvailable
        case 6: .cloudServicePermissionDenied
        case 7: .cloudServiceNetworkConnectionFailed
        case 8: .cloudServiceRevoked
        default: .unknown
        }
    }
}
