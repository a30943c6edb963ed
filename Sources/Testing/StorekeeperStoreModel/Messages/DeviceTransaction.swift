public import StorekeeperTestChain

/// A StoreKit 2 transaction as the device of an Apple ID receives it: a purchase's result or an element of
/// `Transaction.updates` (purchases, renewals, refunds, revocations, family-shared copies).
public struct DeviceTransaction: Sendable, Hashable {
    /// The Apple ID signed in to the App Store on the device.
    public var appleID: String
    /// The app account signed in to the app on that device.
    public var account: String
    /// The JWS (`jwsRepresentation`).
    public var signed: String
    /// What `signed` holds.
    public var payload: TransactionPayload

    /// A device transaction.
    public init(appleID: String, account: String, signed: String, payload: TransactionPayload) {
        self.appleID = appleID
        self.account = account
        self.signed = signed
        self.payload = payload
    }
}
