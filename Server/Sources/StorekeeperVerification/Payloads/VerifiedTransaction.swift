public import Foundation

/// A StoreKit 2 transaction (`JWSTransactionDecodedPayload`) whose signature,
/// chain, bundle id and environment were verified. Every member Apple
/// documents is here; a member absent from the payload is nil. Enumerated
/// members keep Apple's raw value, so that values added later still decode.
public struct VerifiedTransaction: Sendable, Hashable {
    /// The environment the transaction comes from (the verifier's).
    public var environment: SignedDataVerifier.Environment
    /// The app's bundle identifier (the verifier's).
    public var bundleID: String
    /// `transactionId`.
    public var transactionID: String?
    /// `originalTransactionId`: the first transaction of a subscription or a restore.
    public var originalTransactionID: String?
    /// `webOrderLineItemId`: a subscription's purchase event across devices.
    public var webOrderLineItemID: String?
    /// `productId`.
    public var productID: String?
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// `purchaseDate`.
    public var purchaseDate: Date?
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: Date?
    /// `expiresDate`: when a subscription expires or renews.
    public var expiresDate: Date?
    /// `quantity`: how many consumables were bought.
    public var quantity: Int64?
    /// `type`: "Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription".
    public var type: String?
    /// `appAccountToken`: the UUID the app set on the purchase.
    public var appAccountToken: String?
    /// `inAppOwnershipType`: "PURCHASED" or "FAMILY_SHARED".
    public var inAppOwnershipType: String?
    /// `signedDate`: when the App Store signed the payload.
    public var signedDate: Date?
    /// `revocationReason`: 0 (other), 1 (an issue in the app).
    public var revocationReason: Int64?
    /// `revocationDate`: when the App Store refunded or revoked it.
    public var revocationDate: Date?
    /// `isUpgraded`: whether the user upgraded to another subscription.
    public var isUpgraded: Bool?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int64?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `storefront`: the three-letter code of the App Store country.
    public var storefront: String?
    /// `storefrontId`.
    public var storefrontID: String?
    /// `transactionReason`: "PURCHASE" or "RENEWAL".
    public var transactionReason: String?
    /// `currency`: ISO 4217 code of the price.
    public var currency: String?
    /// `price`: in milliunits of the currency.
    public var price: Int64?
    /// `offerDiscountType`: "FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "ONE_TIME".
    public var offerDiscountType: String?
    /// `appTransactionId`.
    public var appTransactionID: String?
    /// `offerPeriod`: an ISO 8601 duration.
    public var offerPeriod: String?
    /// `revocationType`: "REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE".
    public var revocationType: String?
    /// `revocationPercentage`: in thousandths of a percent, for a prorated refund.
    public var revocationPercentage: Int64?

    init(_ payload: PayloadReader, environment: SignedDataVerifier.Environment, bundleID: String) throws(VerificationFailure) {
        self.environment = environment
        self.bundleID = bundleID
        transactionID = try payload.string("transactionId")
        originalTransactionID = try payload.string("originalTransactionId")
        webOrderLineItemID = try payload.string("webOrderLineItemId")
        productID = try payload.string("productId")
        subscriptionGroupIdentifier = try payload.string("subscriptionGroupIdentifier")
        purchaseDate = try payload.date("purchaseDate")
        originalPurchaseDate = try payload.date("originalPurchaseDate")
        expiresDate = try payload.date("expiresDate")
        quantity = try payload.integer("quantity")
        type = try payload.string("type")
        appAccountToken = try payload.string("appAccountToken")
        inAppOwnershipType = try payload.string("inAppOwnershipType")
        signedDate = try payload.date("signedDate")
        revocationReason = try payload.integer("revocationReason")
        revocationDate = try payload.date("revocationDate")
        isUpgraded = try payload.bool("isUpgraded")
        offerType = try payload.integer("offerType")
        offerIdentifier = try payload.string("offerIdentifier")
        storefront = try payload.string("storefront")
        storefrontID = try payload.string("storefrontId")
        transactionReason = try payload.string("transactionReason")
        currency = try payload.string("currency")
        price = try payload.integer("price")
        offerDiscountType = try payload.string("offerDiscountType")
        appTransactionID = try payload.string("appTransactionId")
        offerPeriod = try payload.string("offerPeriod")
        revocationType = try payload.string("revocationType")
        revocationPercentage = try payload.integer("revocationPercentage")
    }
}
