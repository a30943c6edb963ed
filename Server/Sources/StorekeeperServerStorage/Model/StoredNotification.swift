/// An App Store Server Notification (V2), kept by its `notificationUUID`
/// before it is processed.
public struct StoredNotification: Sendable, Equatable {
    /// Apple's id of the notification: the key; a retry carries the same.
    public var notificationUUID: String
    /// `SUBSCRIBED`, `DID_RENEW`, ... (unknown types are kept too).
    public var notificationType: String
    /// The subtype, when there is one.
    public var subtype: String?
    /// `Sandbox` or `Production`: the route it came on.
    public var environment: String
    /// The signed payload as received.
    public var payload: String
    /// When the server received it first, seconds since 1970.
    public var receivedAt: Double
    /// When its effects were committed; nil until then.
    public var processedAt: Double?

    /// A notification as received.
    public init(
        notificationUUID: String, notificationType: String, subtype: String? = nil, environment: String,
        payload: String, receivedAt: Double, processedAt: Double? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.environment = environment
        self.payload = payload
        self.receivedAt = receivedAt
        self.processedAt = processedAt
    }
}

/// What storing a received notification found.
public enum NotificationReceipt: Sendable, Equatable {
    /// First time: stored, to be processed.
    case new
    /// Stored before and not processed yet (an earlier attempt failed): process it.
    case pending
    /// Stored and processed before: answer 200 and change nothing.
    case processed
}
