public import StorekeeperTestChain

/// An App Store Server Notification V2 as the App Store POSTs it to the server: `{"signedPayload": …}`.
public struct ServerNotification: Sendable, Hashable {
    /// The JWS of ``payload``.
    public var signedPayload: String
    /// What `signedPayload` holds (its `data` carries the signed transaction and renewal info below).
    public var payload: NotificationPayload
    /// What `data.signedTransactionInfo` holds.
    public var transaction: TransactionPayload?
    /// What `data.signedRenewalInfo` holds.
    public var renewal: RenewalInfoPayload?

    /// A notification.
    public init(signedPayload: String, payload: NotificationPayload, transaction: TransactionPayload?, renewal: RenewalInfoPayload?) {
        self.signedPayload = signedPayload
        self.payload = payload
        self.transaction = transaction
        self.renewal = renewal
    }

    /// The HTTP body Apple posts: `{"signedPayload":"…"}`.
    public var body: String { "{\"signedPayload\":\"\(signedPayload)\"}" }
}
