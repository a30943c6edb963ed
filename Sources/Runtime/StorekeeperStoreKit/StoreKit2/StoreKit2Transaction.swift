public import Foundation
public import StorekeeperCore

/// The part of StoreKit 2's `Transaction` the StoreKit 2 backend reads:
/// Apple's type conforms where StoreKit exists (AppleStoreKit2.swift), a
/// fake does in tests.
public protocol StoreKit2Transaction: Sendable {
    /// The App Store's identifier of the transaction (`Transaction.id`).
    var id: UInt64 { get }
    /// The identifier of the original purchase: the same as ``id`` for a
    /// first purchase, the first transaction for a subscription's renewals
    /// and for restores (`Transaction.originalID`).
    var originalID: UInt64 { get }
    /// The product bought (`Transaction.productID`).
    var productID: String { get }
    /// The product's type, or nil for a type this version does not know (`Transaction.productType`).
    var productType: ProductType? { get }
    /// When it was bought (`Transaction.purchaseDate`).
    var purchaseDate: Date { get }
    /// When the App Store signed this version of the transaction (`Transaction.signedDate`):
    /// the later of two versions of one transaction is the one that counts.
    var signedDate: Date { get }
    /// When a subscription period it pays for ends (`Transaction.expirationDate`).
    var expirationDate: Date? { get }
    /// When the App Store refunded it or took it back from the family (`Transaction.revocationDate`).
    var revocationDate: Date? { get }
    /// Why it was refunded, when the App Store says (`Transaction.revocationReason`).
    var revocationReason: StoreKit2RevocationReason? { get }
    /// The share of the purchase the App Store refunded, as a percentage from
    /// 0.0 to 100.0 (`Transaction.revocationPercentage`, iOS 15 and later,
    /// back-deployed before iOS 26.4:
    /// https://developer.apple.com/documentation/storekit/transaction/revocationpercentage);
    /// nil when not refunded or when the refund was reversed. It applies to
    /// the whole quantity: 1 of 3 items refunded is about 33.333.
    var revocationPercentage: Decimal? { get }
    /// How it was revoked: a full or prorated refund, or Family Sharing
    /// (`Transaction.revocationType`, iOS 26.4 and later:
    /// https://developer.apple.com/documentation/storekit/transaction/revocationtype-swift.property);
    /// nil when not revoked, and on earlier systems.
    var revocationType: StoreKit2RevocationType? { get }
    /// Whether the user upgraded this subscription to a higher level of
    /// service (`Transaction.isUpgraded`:
    /// https://developer.apple.com/documentation/storekit/transaction/isupgraded):
    /// the higher level's transaction entitles the user instead.
    var isUpgraded: Bool { get }
    /// The renewal status of the subscription the transaction belongs to, nil
    /// for a product that is not an auto-renewable subscription
    /// (`Transaction.subscriptionStatus`, iOS 15 and later, back-deployed
    /// before iOS 17: https://developer.apple.com/documentation/storekit/transaction/subscriptionstatus).
    var subscriptionStatus: StoreKit2SubscriptionStatus? { get async }
    /// How many were bought (`Transaction.purchasedQuantity`).
    var purchasedQuantity: Int { get }
    /// The token the purchase carried (`Transaction.appAccountToken`): see `AppAccountToken`.
    var appAccountToken: UUID? { get }
    /// Whether the user bought it or a family member shares it (`Transaction.ownershipType`).
    var ownershipType: StoreKit2OwnershipType { get }
    /// The transaction as the App Store signed it: a JWS in compact
    /// serialization (`VerificationResult.jwsRepresentation`).
    var jwsRepresentation: String { get }
    /// Tells the App Store the app is done with it (`Transaction.finish()`).
    func finish() async
}

/// Why the App Store refunded a transaction (`Transaction.RevocationReason`).
public enum StoreKit2RevocationReason: Sendable, Hashable {
    /// Refunded for a problem in the app (`.developerIssue`).
    case developerIssue
    /// Refunded for another reason (`.other`), or one this version does not know.
    case other
}

/// Who owns a transaction (`Transaction.OwnershipType`).
public enum StoreKit2OwnershipType: Sendable, Hashable {
    /// The user bought it (`.purchased`).
    case purchased
    /// A family member bought it and shares it with the user (`.familyShared`).
    case familyShared
}

/// How the App Store revoked a transaction (`Transaction.RevocationType`, iOS 26.4:
/// https://developer.apple.com/documentation/storekit/transaction/revocationtype-swift.struct).
public enum StoreKit2RevocationType: Sendable, Hashable {
    /// Refunded in full (`.fullRefund`).
    case fullRefund
    /// Refunded in part, by consumption (`.proratedRefund`): ``StoreKit2Transaction/revocationPercentage`` says how much.
    case proratedRefund
    /// Revoked from Family Sharing (`.familyRevocation`).
    case familyRevocation
    /// A type this version does not know (`.assignmentRevocation`, say).
    case other
}

/// What StoreKit says of a subscription's renewal (`Product.SubscriptionInfo.Status`:
/// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct).
public struct StoreKit2SubscriptionStatus: Sendable, Hashable {
    /// The renewal state (`Status.state`).
    public var state: StoreKit2RenewalState
    /// When the billing grace period ends (`RenewalInfo.gracePeriodExpirationDate`:
    /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate),
    /// read only from renewal info that verifies; nil outside a grace period.
    public var gracePeriodExpirationDate: Date?

    /// Describes a status.
    public init(state: StoreKit2RenewalState, gracePeriodExpirationDate: Date?) {
        self.state = state
        self.gracePeriodExpirationDate = gracePeriodExpirationDate
    }

    /// The end of the grace period, if the subscription is in one: Apple asks
    /// for full service until then ("Ensure that your app provides full
    /// service for the subscription throughout the grace period").
    public var gracePeriodEnd: Date? { state == .inGracePeriod ? gracePeriodExpirationDate : nil }
}

/// A subscription's renewal state (`Product.SubscriptionInfo.RenewalState`:
/// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate).
public enum StoreKit2RenewalState: Sendable, Hashable {
    /// Subscribed (`.subscribed`).
    case subscribed
    /// Expired (`.expired`).
    case expired
    /// Billing retry, no service (`.inBillingRetryPeriod`).
    case inBillingRetryPeriod
    /// Billing grace period: "entitled to service" (`.inGracePeriod`).
    case inGracePeriod
    /// Revoked (`.revoked`).
    case revoked
    /// A state this version does not know.
    case other
}
