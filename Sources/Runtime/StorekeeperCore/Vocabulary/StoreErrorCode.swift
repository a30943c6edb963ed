/// The store's reasons for a failed transaction.
public enum StoreErrorCode: String, CaseIterable, Hashable, Sendable {
    /// An error the store could not name.
    case unknown
    /// The client may not make the request.
    case clientInvalid = "client-invalid"
    /// The user cancelled.
    case paymentCancelled = "payment-cancelled"
    /// A payment parameter was not recognised.
    case paymentInvalid = "payment-invalid"
    /// The device may not make payments.
    case paymentNotAllowed = "payment-not-allowed"
    /// The product is not available in the current storefront.
    case productNotAvailable = "product-not-available"
    /// The network failed.
    case networkError = "network-error"
    /// The user has not allowed access to cloud service information.
    case cloudServicePermissionDenied = "cloud-service-permission-denied"
    /// The device could not connect to the network for a cloud service.
    case cloudServiceNetworkConnectionFailed = "cloud-service-network-connection-failed"
    /// The user revoked permission to use the cloud service.
    case cloudServiceRevoked = "cloud-service-revoked"
    /// The App Store's signature of the transaction did not check out on the
    /// device (StoreKit 2's `VerificationResult.unverified`): nothing is delivered.
    case verificationFailed = "verification-failed"
}
