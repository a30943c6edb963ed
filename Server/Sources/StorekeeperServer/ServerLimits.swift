/// The sizes a server accepts.
public struct ServerLimits: Sendable, Hashable, CustomStringConvertible {
    /// The largest request body, in bytes: a larger one is 413. 1 MiB by default.
    public var requestBody: Int
    /// The longest client token, in bytes: a longer one is 401 before any work. 8 KiB by default.
    public var clientToken: Int
    /// The most records (`PUT /v1/records/{id}`) one user may keep: a new one beyond it is 409
    /// `too-many-records` (replacing one kept is always allowed). 10,000 by default, far more than
    /// an app's purchases, and a bound on what one account can make the server store.
    public var recordsPerUser: Int

    /// Limits; the defaults fit the contract's requests with room to spare.
    public init(requestBody: Int = 1 << 20, clientToken: Int = 8 << 10, recordsPerUser: Int = 10_000) {
        self.requestBody = requestBody
        self.clientToken = clientToken
        self.recordsPerUser = recordsPerUser
    }

    public var description: String {
        "request body \(requestBody) bytes, client token \(clientToken) bytes, \(recordsPerUser) records per user"
    }
}
