public import Foundation
public import StorekeeperJSON
public import StorekeeperSimulatedStore

/// An auto-renewable subscription's renewal information as the App Store
/// signs it (`signedRenewalInfo`): the fields of Apple's
/// `JWSRenewalInfoDecodedPayload`. ``json`` leaves out absent (nil) fields.
public struct RenewalInfoPayload: Sendable, Hashable {
    /// Why a subscription expired (`expirationIntent`).
    public enum ExpirationIntent: Int, Sendable, Hashable, CaseIterable {
        /// The customer cancelled (1).
        case customerCancelled = 1
        /// A billing error (2).
        case billingError = 2
        /// The customer did not consent to a price increase (3).
        case declinedPriceIncrease = 3
        /// The product was not available at renewal (4).
        case productNotAvailable = 4
        /// Another reason (5).
        case other = 5
    }

    /// `originalTransactionId`: the subscription's first purchase.
    public var originalTransactionID: String
    /// `productId`: the product of the current period.
    public var productID: String
    /// `autoRenewProductId`: the product that renews next.
    public var autoRenewProductID: String
    /// `autoRenewStatus`: whether it renews (written 1 or 0).
    public var autoRenews: Bool
    /// `expirationIntent`, once expired.
    public var expirationIntent: ExpirationIntent?
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`, in a billing grace period.
    public var gracePeriodExpiresDate: Date?
    /// `signedDate`.
    public var signedDate: Date
    /// `environment`.
    public var environment: AppStoreEnvironment
    /// `recentSubscriptionStartDate`: the start of the latest run of periods without a gap.
    public var recentSubscriptionStartDate: Date?
    /// `renewalDate`: when the next period starts (or started).
    public var renewalDate: Date?
    /// `appAccountToken` (written lowercase).
    public var appAccountToken: UUID?
    /// `renewalPrice`, in milliunits of ``currency``.
    public var renewalPrice: Int?
    /// `currency`, ISO 4217.
    public var currency: String?
    /// `priceIncreaseStatus`: 0 the customer has not yet consented to a price increase, 1 consented (or none needed).
    public var priceIncreaseStatus: Int?
    /// `offerType` of the next renewal: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int?
    /// `offerIdentifier` of the next renewal's offer.
    public var offerIdentifier: String?
    /// `offerDiscountType` of the next renewal's offer.
    public var offerDiscountType: String?

    /// Renewal information; by default it renews into the same product.
    public init(originalTransactionID: String, productID: String, autoRenewProductID: String? = nil, autoRenews: Bool = true,
                expirationIntent: ExpirationIntent? = nil, isInBillingRetryPeriod: Bool? = nil, gracePeriodExpiresDate: Date? = nil,
                signedDate: Date, environment: AppStoreEnvironment, recentSubscriptionStartDate: Date? = nil, renewalDate: Date? = nil,
                appAccountToken: UUID? = nil, renewalPrice: Int? = nil, currency: String? = nil,
                priceIncreaseStatus: Int? = nil, offerType: Int? = nil, offerIdentifier: String? = nil, offerDiscountType: String? = nil) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID ?? productID
        self.autoRenews = autoRenews
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.appAccountToken = appAccountToken
        self.renewalPrice = renewalPrice
        self.currency = currency
        self.priceIncreaseStatus = priceIncreaseStatus
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
    }

    /// The payload.
    public var json: JSONValue {
        var members = PayloadMembers()
        members.add("originalTransactionId", originalTransactionID)
        members.add("autoRenewProductId", autoRenewProductID)
        members.add("productId", productID)
        members.add("autoRenewStatus", Int(autoRenews ? 1 : 0))
        members.add("expirationIntent", expirationIntent?.rawValue)
        members.add("isInBillingRetryPeriod", isInBillingRetryPeriod)
        members.add("gracePeriodExpiresDate", gracePeriodExpiresDate)
        members.add("signedDate", signedDate)
        members.add("environment", environment.rawValue)
        members.add("recentSubscriptionStartDate", recentSubscriptionStartDate)
        members.add("renewalDate", renewalDate)
        members.add("appAccountToken", appAccountToken)
        members.add("renewalPrice", renewalPrice)
        members.add("currency", currency)
        members.add("priceIncreaseStatus", priceIncreaseStatus)
        members.add("offerType", offerType)
        members.add("offerIdentifier", offerIdentifier)
        members.add("offerDiscountType", offerDiscountType)
        return members.object
    }
}
