/// A user the server knows: the app's user id and StoreKit's name for it.
public struct UserAccount: Sendable, Equatable {
    /// The app's user id (the queue's `applicationUsername`).
    public var user: String
    /// The UUID StoreKit 2 carries in the user's signed transactions, in lowercase.
    public var appAccountToken: String

    /// A user and their `appAccountToken`.
    public init(user: String, appAccountToken: String) {
        self.user = user
        self.appAccountToken = appAccountToken
    }
}
