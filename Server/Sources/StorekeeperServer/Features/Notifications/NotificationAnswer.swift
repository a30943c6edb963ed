import StorekeeperContract

/// What `POST /v1/notifications/{environment}` answers the App Store: 200
/// once the notification is committed (or was before), 400 for data that is
/// malformed or forged (Apple gives up after its retries), 503 for a failure
/// a retry may fix (Apple retries).
public struct NotificationAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status: 200, 400 or 503.
    public var status: Int
    /// The contract's error code (kebab-case) when the status is not 200.
    public var code: String?
    /// A sentence saying what was wrong, when the status is not 200.
    public var message: String?

    /// The notification is committed: 200, no body.
    public static let acknowledged = NotificationAnswer(status: 200, code: nil, message: nil)

    /// Data the App Store would never send as it is (400).
    static func refused(_ code: ErrorCode, _ message: String) -> NotificationAnswer {
        NotificationAnswer(status: 400, code: code.rawValue, message: message)
    }

    /// A failure a retry may fix (503).
    static func unavailable(_ code: ErrorCode, _ message: String) -> NotificationAnswer {
        NotificationAnswer(status: 503, code: code.rawValue, message: message)
    }

    /// The response body: empty for 200, else the contract's `{"error":{"code","message"}}`.
    public var body: [UInt8] {
        guard let code else { return [] }
        return ServerErrorBody(code: code, message: message ?? code).json
    }

    public var description: String {
        code.map { "\(status) \($0): \(message ?? "")" } ?? "\(status)"
    }
}
