/// A CONSUMPTION_REQUEST notification kept for the team, who answer it
/// through the App Store Server API.
public struct ConsumptionRequest: Sendable, Equatable {
    /// The notification that asked: the key.
    public var notificationUUID: String
    /// The transaction the App Store asks about.
    public var transactionID: String
    /// The user it belongs to, when the server knows.
    public var user: String?
    /// When it was received, seconds since 1970.
    public var receivedAt: Double

    /// A consumption request.
    public init(notificationUUID: String, transactionID: String, user: String?, receivedAt: Double) {
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.user = user
        self.receivedAt = receivedAt
    }
}
