/// What the App Store last said about an auto-renewable subscription, kept by
/// its original transaction id whoever holds it (or before anyone does): the
/// newest-signed notification's `data.status`, and the newest-signed renewal
/// info's `gracePeriodExpiresDate`. Each part is replaced only by a newer
/// signed one, so the order notifications arrive in changes nothing.
///
/// A subscription's state is derived when it is read, from its current
/// period (its transactions) and this status; nothing here says "active".
public struct SubscriptionRenewal: Sendable, Equatable {
    /// Apple's `data.status` for a subscription in billing retry.
    public static let billingRetry = 3
    /// Apple's `data.status` for a subscription in a billing grace period.
    public static let billingGracePeriod = 4

    /// The subscription's first transaction: the key.
    public var originalTransactionID: String
    /// Apple's `data.status` (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked); nil when not told.
    public var status: Int?
    /// When the App Store signed the notification that said `status`, seconds since 1970.
    public var statusSignedDate: Double?
    /// The renewal info's `gracePeriodExpiresDate`, seconds since 1970; nil when it has none.
    public var gracePeriodExpiresDate: Double?
    /// When the App Store signed that renewal info; nil when no renewal info was told.
    public var renewalSignedDate: Double?

    /// What a notification says about the subscription `originalTransactionID`.
    public init(
        originalTransactionID: String, status: Int? = nil, statusSignedDate: Double? = nil, gracePeriodExpiresDate: Double? = nil,
        renewalSignedDate: Double? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.status = status
        self.statusSignedDate = statusSignedDate
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.renewalSignedDate = renewalSignedDate
    }
}
