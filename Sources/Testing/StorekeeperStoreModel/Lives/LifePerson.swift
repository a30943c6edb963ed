/// One person of a random life: an Apple ID, and the app account signed in on that Apple ID's device.
public struct LifePerson: Sendable, Hashable {
    /// The Apple ID (the payer).
    public var appleID: String
    /// The app account (the server's user; purchases with an appAccountToken carry its derived token).
    public var account: String

    /// A person.
    public init(appleID: String, account: String) {
        self.appleID = appleID
        self.account = account
    }
}
