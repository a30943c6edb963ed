/// A subscription's state, kept by its original transaction id.
public struct SubscriptionState: Sendable, Equatable {
    /// Where a subscription stands.
    public enum Status: String, Sendable, CaseIterable {
        /// Paid for the current period.
        case active
        /// Ended, not renewed.
        case expired
        /// Renewal failed; the App Store keeps trying, and access has ended.
        case billingRetry = "billing-retry"
        /// Renewal failed; the App Store keeps trying, and access goes on until the grace period ends.
        case gracePeriod = "grace-period"
        /// Refunded or revoked (family sharing).
        case revoked
    }

    /// The subscription's first transaction: the key.
    public var originalTransactionID: String
    /// The user it belongs to.
    public var user: String
    /// The product subscribed to (the latest renewal's).
    public var productID: String
    /// Where it stands.
    public var status: Status
    /// When the current period (or the grace period) ends, seconds since 1970; nil when unknown.
    public var expirationDate: Double?
    /// When the App Store signed the data this state comes from: a newer one replaces an older one.
    public var signedDate: Double

    /// A subscription's state.
    public init(originalTransactionID: String, user: String, productID: String, status: Status, expirationDate: Double?, signedDate: Double) {
        self.originalTransactionID = originalTransactionID
        self.user = user
        self.productID = productID
        self.status = status
        self.expirationDate = expirationDate
        self.signedDate = signedDate
    }
}
