public import Foundation
public import StorekeeperJSON
public import StorekeeperSimulatedStore

/// An App Store Server Notification, version 2, as the App Store signs it (the
/// `signedPayload` posted to a server): the fields of Apple's
/// `ResponseBodyV2DecodedPayload` with its `data`. The transaction and the
/// renewal information inside are signed payloads themselves
/// (``SignedDataSigner`` of a ``TransactionPayload`` and a ``RenewalInfoPayload``).
public struct NotificationPayload: Sendable, Hashable {
    /// `notificationType`: what happened. The constants are the ones a
    /// subscription's life and refunds send; any other name Apple defines can
    /// be written as a string.
    public struct NotificationType: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
        /// The name Apple writes.
        public var rawValue: String
        /// A type by its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A type by its name.
        public init(stringLiteral value: String) { rawValue = value }

        /// The user subscribed (subtype `INITIAL_BUY` or `RESUBSCRIBE`).
        public static let subscribed: NotificationType = "SUBSCRIBED"
        /// The subscription renewed (subtype `BILLING_RECOVERY` after a failed renewal).
        public static let didRenew: NotificationType = "DID_RENEW"
        /// Renewal turned on or off (subtype `AUTO_RENEW_ENABLED` or `AUTO_RENEW_DISABLED`).
        public static let didChangeRenewalStatus: NotificationType = "DID_CHANGE_RENEWAL_STATUS"
        /// A renewal failed for billing (subtype `GRACE_PERIOD` when a grace period starts).
        public static let didFailToRenew: NotificationType = "DID_FAIL_TO_RENEW"
        /// The subscription expired (subtype `VOLUNTARY`, `BILLING_RETRY`, `PRICE_INCREASE`, `PRODUCT_NOT_FOR_SALE`).
        public static let expired: NotificationType = "EXPIRED"
        /// The billing grace period ended without a renewal.
        public static let gracePeriodExpired: NotificationType = "GRACE_PERIOD_EXPIRED"
        /// The App Store refunded a transaction.
        public static let refund: NotificationType = "REFUND"
        /// A refund was reversed.
        public static let refundReversed: NotificationType = "REFUND_REVERSED"
        /// Family sharing stopped giving the user a purchase.
        public static let revoke: NotificationType = "REVOKE"
        /// A consumable, non-consumable or non-renewing subscription was bought.
        public static let oneTimeCharge: NotificationType = "ONE_TIME_CHARGE"
        /// A test notification the server asked for.
        public static let test: NotificationType = "TEST"
        /// The customer changed plan in the group (subtype `UPGRADE`, `DOWNGRADE`, or none).
        public static let didChangeRenewalPref: NotificationType = "DID_CHANGE_RENEWAL_PREF"
        /// The App Store declined a refund request.
        public static let refundDeclined: NotificationType = "REFUND_DECLINED"
        /// The customer asked for a refund; the App Store asks for consumption information.
        public static let consumptionRequest: NotificationType = "CONSUMPTION_REQUEST"
        /// The developer extended a subscription's renewal date.
        public static let renewalExtended: NotificationType = "RENEWAL_EXTENDED"
        /// The customer was told of a price increase (subtype `PENDING` or `ACCEPTED`).
        public static let priceIncrease: NotificationType = "PRICE_INCREASE"
        /// The customer redeemed a promotional offer, an offer code or a win-back offer.
        public static let offerRedeemed: NotificationType = "OFFER_REDEEMED"
    }

    /// `subtype`: more about what happened.
    public struct Subtype: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
        /// The name Apple writes.
        public var rawValue: String
        /// A subtype by its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A subtype by its name.
        public init(stringLiteral value: String) { rawValue = value }

        /// A first subscription in a group.
        public static let initialBuy: Subtype = "INITIAL_BUY"
        /// A subscription again after it expired.
        public static let resubscribe: Subtype = "RESUBSCRIBE"
        /// Renewal turned on.
        public static let autoRenewEnabled: Subtype = "AUTO_RENEW_ENABLED"
        /// Renewal turned off.
        public static let autoRenewDisabled: Subtype = "AUTO_RENEW_DISABLED"
        /// Expired because the user turned renewal off.
        public static let voluntary: Subtype = "VOLUNTARY"
        /// Expired because billing retry ended without success.
        public static let billingRetry: Subtype = "BILLING_RETRY"
        /// A failed renewal started a grace period.
        public static let gracePeriod: Subtype = "GRACE_PERIOD"
        /// A renewal succeeded after billing had failed.
        public static let billingRecovery: Subtype = "BILLING_RECOVERY"
        /// An upgrade, in effect at once.
        public static let upgrade: Subtype = "UPGRADE"
        /// A downgrade, in effect at the next renewal.
        public static let downgrade: Subtype = "DOWNGRADE"
        /// A price increase the customer has not answered yet.
        public static let pending: Subtype = "PENDING"
        /// A price increase the customer consented to (or that needed no consent).
        public static let accepted: Subtype = "ACCEPTED"
        /// Expired because the customer did not consent to a price increase.
        public static let priceIncrease: Subtype = "PRICE_INCREASE"
    }

    /// A subscription's state (`data.status`).
    public enum SubscriptionStatus: Int, Sendable, Hashable, CaseIterable {
        /// Active (1).
        case active = 1
        /// Expired (2).
        case expired = 2
        /// In billing retry (3).
        case billingRetry = 3
        /// In a billing grace period (4).
        case billingGracePeriod = 4
        /// Revoked (5).
        case revoked = 5
    }

    /// `notificationType`.
    public var notificationType: NotificationType
    /// `subtype`.
    public var subtype: Subtype?
    /// `notificationUUID`: the notification's identity (a server keeps each once).
    public var notificationUUID: UUID
    /// `data.appAppleId`: the app's App Store identifier (verifiers in production require it).
    public var appAppleID: Int?
    /// `data.bundleId`.
    public var bundleID: String
    /// `data.bundleVersion`.
    public var bundleVersion: String?
    /// `data.environment`.
    public var environment: AppStoreEnvironment
    /// `data.signedTransactionInfo`: a signed ``TransactionPayload``.
    public var signedTransactionInfo: String?
    /// `data.signedRenewalInfo`: a signed ``RenewalInfoPayload``.
    public var signedRenewalInfo: String?
    /// `data.status`, for subscriptions.
    public var status: SubscriptionStatus?
    /// `signedDate`.
    public var signedDate: Date

    /// A notification.
    public init(notificationType: NotificationType, subtype: Subtype? = nil, notificationUUID: UUID, appAppleID: Int? = nil,
                bundleID: String, bundleVersion: String? = nil, environment: AppStoreEnvironment, signedTransactionInfo: String? = nil,
                signedRenewalInfo: String? = nil, status: SubscriptionStatus? = nil, signedDate: Date) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.appAppleID = appAppleID
        self.bundleID = bundleID
        self.bundleVersion = bundleVersion
        self.environment = environment
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.signedDate = signedDate
    }

    /// The payload (`version` is `2.0`).
    public var json: JSONValue {
        var data = PayloadMembers()
        data.add("appAppleId", appAppleID)
        data.add("bundleId", bundleID)
        data.add("bundleVersion", bundleVersion)
        data.add("environment", environment.rawValue)
        data.add("signedTransactionInfo", signedTransactionInfo)
        data.add("signedRenewalInfo", signedRenewalInfo)
        data.add("status", status?.rawValue)
        var members = PayloadMembers()
        members.add("notificationType", notificationType.rawValue)
        members.add("subtype", subtype?.rawValue)
        members.add("notificationUUID", notificationUUID)
        members.add("data", data.object)
        members.add("version", "2.0" as String)
        members.add("signedDate", signedDate)
        return members.object
    }
}
