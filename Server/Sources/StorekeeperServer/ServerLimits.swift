/// The sizes a server accepts.
public struct ServerLimits: Sendable, Hashable, CustomStringConvertible {
    /// The largest request body, in bytes: a larger one is 413. 1 MiB by default.
    public var requestBody: Int
    /// The longest client token, in bytes: a longer one is 401 before any work. 8 KiB by default.
    public var clientToken: Int

    /// Limits; the defaults fit the contract's requests with room to spare.
    public init(requestBody: Int = 1 << 20, clientToken: Int = 8 << 10) {
        self.requestBody = requestBody
        self.clientToken = clientToken
    }

    public var description: String { "request body \(requestBody) bytes, client token \(clientToken) bytes" }
}
