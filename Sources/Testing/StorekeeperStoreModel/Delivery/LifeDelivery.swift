/// One HTTP request a driver makes for a message: the App Store posting a notification to the server,
/// or a device's app posting a transaction it received (`POST /v1/transactions`, with its account's
/// credential).
public struct LifeDelivery: Sendable, Hashable {
    /// Where the message goes.
    public enum Route: Sendable, Hashable {
        /// `POST /v1/notifications/{environment}`: `{"signedPayload": …}`.
        case notification
        /// `POST /v1/transactions` by the app signed in as `account`: `{"signedTransaction": …}`.
        case transaction(account: String)
    }

    /// Why this copy is sent.
    public enum Attempt: String, Sendable, Hashable {
        /// The first delivery.
        case first
        /// Delivered again (a retry of something that did arrive).
        case duplicate
        /// The retry of a first attempt that was lost.
        case retry
        /// An older version of a transaction, after a newer one was posted.
        case staleCopy = "stale-copy"
    }

    /// Where it goes.
    public var route: Route
    /// The request's JSON body.
    public var body: String
    /// Which server instance receives it, when a driver runs several (taken modulo their number).
    public var instance: Int
    /// Why this copy is sent.
    public var attempt: Attempt
    /// What it is, for traces: `DID_RENEW (2000000003 of 2000000001)`, `post 2000000001 by account-1`.
    public var summary: String
    /// The step whose message it is.
    public var sentAtStep: Int

    /// A delivery.
    public init(route: Route, body: String, instance: Int, attempt: Attempt, summary: String, sentAtStep: Int) {
        self.route = route
        self.body = body
        self.instance = instance
        self.attempt = attempt
        self.summary = summary
        self.sentAtStep = sentAtStep
    }

    /// One line: what, why, and from which step.
    public var line: String {
        let why = attempt == .first ? "" : " [\(attempt.rawValue)]"
        return summary + why + " (of step \(sentAtStep))"
    }
}
