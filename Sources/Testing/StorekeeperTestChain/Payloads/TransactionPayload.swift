public import Foundation
public import StorekeeperJSON
public import StorekeeperSimulatedStore

/// A StoreKit 2 transaction as the App Store signs it: the fields of Apple's
/// `JWSTransactionDecodedPayload`. ``json`` is the payload to give
/// ``SignedDataSigner``; absent (nil) fields are left out.
public struct TransactionPayload: Sendable, Hashable {
    /// Why the transaction exists (`transactionReason`).
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// A purchase the user made (a restore too).
        case purchase = "PURCHASE"
        /// An auto-renewable subscription renewed.
        case renewal = "RENEWAL"
    }

    /// How the user has the product (`inAppOwnershipType`).
    public enum Ownership: String, Sendable, Hashable, CaseIterable {
        /// The user bought it.
        case purchased = "PURCHASED"
        /// A family member shares it with the user.
        case familyShared = "FAMILY_SHARED"
    }

    /// Why the App Store refunded it (`revocationReason`).
    public enum RevocationReason: Int, Sendable, Hashable, CaseIterable {
        /// Apple Support refunded it for another reason (0).
        case otherReason = 0
        /// Apple Support refunded it for an issue in the app (1).
        case appIssue = 1
    }

    /// `transactionId`.
    public var transactionID: String
    /// `originalTransactionId`: the first purchase's (itself for a purchase).
    public var originalTransactionID: String
    /// `webOrderLineItemId`: a subscription period's purchase event, for auto-renewable subscriptions.
    public var webOrderLineItemID: String?
    /// `bundleId`: the app's.
    public var bundleID: String
    /// `productId`.
    public var productID: String
    /// `subscriptionGroupIdentifier`, for subscriptions.
    public var subscriptionGroupIdentifier: String?
    /// `purchaseDate` (a renewal: when its period starts).
    public var purchaseDate: Date
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: Date
    /// `expiresDate`, for subscriptions.
    public var expiresDate: Date?
    /// `quantity`.
    public var quantity: Int
    /// `type`.
    public var type: AppStoreProductType
    /// `appAccountToken` (written lowercase).
    public var appAccountToken: UUID?
    /// `inAppOwnershipType`.
    public var ownership: Ownership
    /// `signedDate`: when the App Store signed it; verifiers check the chain at this date.
    public var signedDate: Date
    /// How much of the transaction the App Store refunded or revoked (`revocationType`).
    /// Source: https://developer.apple.com/documentation/appstoreserverapi/revocationtype
    public enum RevocationType: String, Sendable, Hashable, CaseIterable {
        /// A full refund.
        case refundFull = "REFUND_FULL"
        /// A prorated refund (`revocationPercentage` says how much).
        case refundProrated = "REFUND_PRORATED"
        /// Family Sharing no longer gives the purchase.
        case familyRevoke = "FAMILY_REVOKE"
    }

    /// `revocationReason`, for a refunded transaction.
    public var revocationReason: RevocationReason?
    /// `revocationDate`, for a refunded or revoked transaction.
    public var revocationDate: Date?
    /// `environment`.
    public var environment: AppStoreEnvironment
    /// `transactionReason`.
    public var reason: Reason
    /// `storefront`: the App Store country, ISO 3166-1 alpha-3.
    public var storefront: String?
    /// `storefrontId`: Apple's identifier of the storefront.
    public var storefrontID: String?
    /// `price`, in milliunits of ``currency`` (1990 for 1.99).
    public var price: Int?
    /// `currency`, ISO 4217.
    public var currency: String?
    /// `isUpgraded`: the customer upgraded to another subscription of the group (set on the upgraded-from transaction).
    public var isUpgraded: Bool?
    /// `revocationPercentage`: how much was refunded, in milliunits (100000 is all of it).
    public var revocationPercentage: Int?
    /// `revocationType`.
    public var revocationType: RevocationType?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int?
    /// `offerIdentifier`: the promotional offer's or offer code's identifier.
    public var offerIdentifier: String?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
    public var offerDiscountType: String?

    /// A transaction; the defaults are those of a first purchase of one item,
    /// bought by the user, in the United States storefront, without price.
    public init(transactionID: String, originalTransactionID: String? = nil, webOrderLineItemID: String? = nil, bundleID: String,
                productID: String, subscriptionGroupIdentifier: String? = nil, purchaseDate: Date, originalPurchaseDate: Date? = nil,
                expiresDate: Date? = nil, quantity: Int = 1, type: AppStoreProductType, appAccountToken: UUID? = nil,
                ownership: Ownership = .purchased, signedDate: Date, revocationReason: RevocationReason? = nil,
                revocationDate: Date? = nil, environment: AppStoreEnvironment, reason: Reason = .purchase,
                storefront: String? = "USA", storefrontID: String? = "143441", price: Int? = nil, currency: String? = nil,
                isUpgraded: Bool? = nil, revocationPercentage: Int? = nil, revocationType: RevocationType? = nil, offerType: Int? = nil,
                offerIdentifier: String? = nil, offerDiscountType: String? = nil) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID ?? transactionID
        self.webOrderLineItemID = webOrderLineItemID
        self.bundleID = bundleID
        self.productID = productID
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate ?? purchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.ownership = ownership
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.environment = environment
        self.reason = reason
        self.storefront = storefront
        self.storefrontID = storefrontID
        self.price = price
        self.currency = currency
        self.isUpgraded = isUpgraded
        self.revocationPercentage = revocationPercentage
        self.revocationType = revocationType
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
    }

    /// The payload, its members in the order of Apple's documentation.
    public var json: JSONValue {
        var members = PayloadMembers()
        members.add("transactionId", transactionID)
        members.add("originalTransactionId", originalTransactionID)
        members.add("webOrderLineItemId", webOrderLineItemID)
        members.add("bundleId", bundleID)
        members.add("productId", productID)
        members.add("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
        members.add("purchaseDate", purchaseDate)
        members.add("originalPurchaseDate", originalPurchaseDate)
        members.add("expiresDate", expiresDate)
        members.add("quantity", quantity)
        members.add("type", type.rawValue)
        members.add("appAccountToken", appAccountToken)
        members.add("inAppOwnershipType", ownership.rawValue)
        members.add("signedDate", signedDate)
        members.add("revocationReason", revocationReason?.rawValue)
        members.add("revocationDate", revocationDate)
        members.add("environment", environment.rawValue)
        members.add("transactionReason", reason.rawValue)
        members.add("storefront", storefront)
        members.add("storefrontId", storefrontID)
        members.add("price", price)
        members.add("currency", currency)
        members.add("isUpgraded", isUpgraded)
        members.add("revocationPercentage", revocationPercentage)
        members.add("revocationType", revocationType?.rawValue)
        members.add("offerType", offerType)
        members.add("offerIdentifier", offerIdentifier)
        members.add("offerDiscountType", offerDiscountType)
        return members.object
    }
}
