public import Foundation

/// The body of `GET /v1/account`: who the credential authenticates, and the
/// appAccountToken a purchase made for them carries.
public struct AccountBody: Codable, Hashable, Sendable {
    /// The server's id for the user.
    public var user: String
    /// The user's appAccountToken, a UUID in lowercase.
    public var appAccountToken: String

    /// An account body.
    public init(user: String, appAccountToken: String) {
        self.user = user
        self.appAccountToken = appAccountToken
    }

    /// The token as a UUID, checked with the user.
    ///
    /// - Throws: ``ContractError`` when the user is empty or the token is not a UUID.
    public func validate() throws(ContractError) -> UUID {
        guard !user.isEmpty else { throw ContractError("user: empty") }
        guard let uuid = UUID(uuidString: appAccountToken) else {
            throw ContractError("appAccountToken: '\(appAccountToken)' is not a UUID")
        }
        return uuid
    }
}
