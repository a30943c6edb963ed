public import Foundation

/// A subscription's renewal information (`JWSRenewalInfoDecodedPayload`)
/// whose signature, chain and environment were verified (it carries no
/// bundle id: Apple's library checks none). Absent members are nil;
/// enumerated members keep Apple's raw value.
public struct VerifiedRenewalInfo: Sendable, Hashable {
    /// The environment the renewal info comes from (the verifier's).
    public var environment: SignedDataVerifier.Environment
    /// `originalTransactionId` of the subscription.
    public var originalTransactionID: String?
    /// `productId` of the current period.
    public var productID: String?
    /// `autoRenewProductId`: what renews next.
    public var autoRenewProductID: String?
    /// `autoRenewStatus`: 1 renews, 0 does not.
    public var autoRenewStatus: Int64?
    /// `expirationIntent`: 1 cancelled, 2 billing error, 3 price increase refused, 4 unavailable, 5 other.
    public var expirationIntent: Int64?
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool?
    /// `priceIncreaseStatus`: 0 not yet answered, 1 accepted.
    public var priceIncreaseStatus: Int64?
    /// `gracePeriodExpiresDate`.
    public var gracePeriodExpiresDate: Date?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int64?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `signedDate`.
    public var signedDate: Date?
    /// `recentSubscriptionStartDate`.
    public var recentSubscriptionStartDate: Date?
    /// `renewalDate`.
    public var renewalDate: Date?
    /// `currency` of ``renewalPrice``.
    public var currency: String?
    /// `renewalPrice`: in milliunits of the currency.
    public var renewalPrice: Int64?
    /// `offerDiscountType`.
    public var offerDiscountType: String?
    /// `eligibleWinBackOfferIds`.
    public var eligibleWinBackOfferIDs: [String]?
    /// `appAccountToken`.
    public var appAccountToken: String?
    /// `appTransactionId`.
    public var appTransactionID: String?
    /// `offerPeriod`: an ISO 8601 duration.
    public var offerPeriod: String?

    init(_ payload: PayloadReader, environment: SignedDataVerifier.Environment) throws(VerificationFailure) {
        self.environment = environment
        originalTransactionID = try payload.string("originalTransactionId")
        productID = try payload.string("productId")
        autoRenewProductID = try payload.string("autoRenewProductId")
        autoRenewStatus = try payload.integer("autoRenewStatus")
        expirationIntent = try payload.integer("expirationIntent")
        isInBillingRetryPeriod = try payload.bool("isInBillingRetryPeriod")
        priceIncreaseStatus = try payload.integer("priceIncreaseStatus")
        gracePeriodExpiresDate = try payload.date("gracePeriodExpiresDate")
        offerType = try payload.integer("offerType")
        offerIdentifier = try payload.string("offerIdentifier")
        signedDate = try payload.date("signedDate")
        recentSubscriptionStartDate = try payload.date("recentSubscriptionStartDate")
        renewalDate = try payload.date("renewalDate")
        currency = try payload.string("currency")
        renewalPrice = try payload.integer("renewalPrice")
        offerDiscountType = try payload.string("offerDiscountType")
        eligibleWinBackOfferIDs = try payload.strings("eligibleWinBackOfferIds")
        appAccountToken = try payload.string("appAccountToken")
        appTransactionID = try payload.string("appTransactionId")
        offerPeriod = try payload.string("offerPeriod")
    }
}
