public import Foundation

/// An App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`)
/// whose signature, chain, bundle id, app Apple id (in production) and
/// environment were verified.
///
/// As in Apple's library, the signed transaction and renewal info it carries
/// (``NotificationData/signedTransactionInfo``, ``NotificationData/signedRenewalInfo``) are not
/// verified with it: verify each with ``SignedDataVerifier/verifyTransaction(_:)``
/// and ``SignedDataVerifier/verifyRenewalInfo(_:)`` before trusting it.
public struct VerifiedNotification: Sendable, Hashable {
    /// `notificationType`: "SUBSCRIBED", "DID_RENEW", "REFUND", "TEST", ...
    public var notificationType: String?
    /// `subtype`: "INITIAL_BUY", "AUTO_RENEW_DISABLED", ...
    public var subtype: String?
    /// `notificationUUID`: the same for every retry of one notification.
    public var notificationUUID: String?
    /// `version`: "2.0".
    public var version: String?
    /// `signedDate`.
    public var signedDate: Date?
    /// `data`: the app and the signed transaction and renewal info (most notifications).
    public var data: NotificationData?
    /// `summary`: a renewal-date extension's outcome.
    public var summary: Summary?
    /// `externalPurchaseToken`: an external purchase.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// `appData`: an app-level notification (no transaction).
    public var appData: AppData?

    /// A notification's `data`.
    public struct NotificationData: Sendable, Hashable {
        /// `environment`: "Sandbox" or "Production".
        public var environment: String?
        /// `appAppleId`: the app's App Store id.
        public var appAppleID: Int64?
        /// `bundleId`.
        public var bundleID: String?
        /// `bundleVersion`.
        public var bundleVersion: String?
        /// `signedTransactionInfo`: a JWS, not yet verified.
        public var signedTransactionInfo: String?
        /// `signedRenewalInfo`: a JWS, not yet verified.
        public var signedRenewalInfo: String?
        /// `status`: a subscription's status, 1 active ... 5 revoked.
        public var status: Int64?
        /// `consumptionRequestReason`.
        public var consumptionRequestReason: String?

        init(_ payload: PayloadReader) throws(VerificationFailure) {
            environment = try payload.string("environment")
            appAppleID = try payload.integer("appAppleId")
            bundleID = try payload.string("bundleId")
            bundleVersion = try payload.string("bundleVersion")
            signedTransactionInfo = try payload.string("signedTransactionInfo")
            signedRenewalInfo = try payload.string("signedRenewalInfo")
            status = try payload.integer("status")
            consumptionRequestReason = try payload.string("consumptionRequestReason")
        }
    }

    /// A notification's `summary` (renewal-date extensions for many subscribers).
    public struct Summary: Sendable, Hashable {
        /// `environment`.
        public var environment: String?
        /// `appAppleId`.
        public var appAppleID: Int64?
        /// `bundleId`.
        public var bundleID: String?
        /// `productId`.
        public var productID: String?
        /// `requestIdentifier`.
        public var requestIdentifier: String?
        /// `storefrontCountryCodes`.
        public var storefrontCountryCodes: [String]?
        /// `succeededCount`.
        public var succeededCount: Int64?
        /// `failedCount`.
        public var failedCount: Int64?

        init(_ payload: PayloadReader) throws(VerificationFailure) {
            environment = try payload.string("environment")
            appAppleID = try payload.integer("appAppleId")
            bundleID = try payload.string("bundleId")
            productID = try payload.string("productId")
            requestIdentifier = try payload.string("requestIdentifier")
            storefrontCountryCodes = try payload.strings("storefrontCountryCodes")
            succeededCount = try payload.integer("succeededCount")
            failedCount = try payload.integer("failedCount")
        }
    }

    /// A notification's `externalPurchaseToken`.
    public struct ExternalPurchaseToken: Sendable, Hashable {
        /// `externalPurchaseId`; one starting "SANDBOX" is from the sandbox.
        public var externalPurchaseID: String?
        /// `tokenCreationDate`.
        public var tokenCreationDate: Date?
        /// `appAppleId`.
        public var appAppleID: Int64?
        /// `bundleId`.
        public var bundleID: String?

        init(_ payload: PayloadReader) throws(VerificationFailure) {
            externalPurchaseID = try payload.string("externalPurchaseId")
            tokenCreationDate = try payload.date("tokenCreationDate")
            appAppleID = try payload.integer("appAppleId")
            bundleID = try payload.string("bundleId")
        }
    }

    /// A notification's `appData`.
    public struct AppData: Sendable, Hashable {
        /// `appAppleId`.
        public var appAppleID: Int64?
        /// `bundleId`.
        public var bundleID: String?
        /// `environment`.
        public var environment: String?
        /// `signedAppTransactionInfo`: a JWS, not yet verified.
        public var signedAppTransactionInfo: String?

        init(_ payload: PayloadReader) throws(VerificationFailure) {
            appAppleID = try payload.integer("appAppleId")
            bundleID = try payload.string("bundleId")
            environment = try payload.string("environment")
            signedAppTransactionInfo = try payload.string("signedAppTransactionInfo")
        }
    }

    init(_ payload: PayloadReader) throws(VerificationFailure) {
        notificationType = try payload.string("notificationType")
        subtype = try payload.string("subtype")
        notificationUUID = try payload.string("notificationUUID")
        version = try payload.string("version")
        signedDate = try payload.date("signedDate")
        data = try payload.object("data").map { reader throws(VerificationFailure) in try NotificationData(reader) }
        summary = try payload.object("summary").map { reader throws(VerificationFailure) in try Summary(reader) }
        externalPurchaseToken = try payload.object("externalPurchaseToken").map { reader throws(VerificationFailure) in
            try ExternalPurchaseToken(reader)
        }
        appData = try payload.object("appData").map { reader throws(VerificationFailure) in try AppData(reader) }
    }

    /// The app and environment the notification is for, found as Apple's
    /// library finds them: in `data`, else `summary`, else
    /// `externalPurchaseToken` (sandbox when its id starts "SANDBOX"), else `appData`.
    var addressee: (bundleID: String?, appAppleID: Int64?, environment: String?) {
        if let data { return (data.bundleID, data.appAppleID, data.environment) }
        if let summary { return (summary.bundleID, summary.appAppleID, summary.environment) }
        if let token = externalPurchaseToken {
            let sandbox = token.externalPurchaseID?.hasPrefix("SANDBOX") ?? false
            return (token.bundleID, token.appAppleID, sandbox ? SignedDataVerifier.Environment.sandbox.rawValue : SignedDataVerifier.Environment.production.rawValue)
        }
        if let appData { return (appData.bundleID, appData.appAppleID, appData.environment) }
        return (nil, nil, nil)
    }
}
