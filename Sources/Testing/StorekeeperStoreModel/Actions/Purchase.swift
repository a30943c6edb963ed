/// A purchase someone makes on the device of an Apple ID, signed in to the app as an app account.
public struct Purchase: Sendable, Hashable {
    /// The Apple ID that pays.
    public var appleID: String
    /// The app account signed in on the buying device.
    public var account: String
    /// The product bought.
    public var productID: String
    /// How many (1 unless consumable).
    public var quantity: Int
    /// Whether the app passes `appAccountToken` (`AppAccountToken.derive(fromUser: account)`).
    public var setsAppAccountToken: Bool
    /// The offer redeemed, for an auto-renewable subscription.
    public var offer: Offer?

    /// A purchase; by default one item, with the app account's token, without offer.
    public init(appleID: String, account: String, productID: String, quantity: Int = 1, setsAppAccountToken: Bool = true,
                offer: Offer? = nil) {
        self.appleID = appleID
        self.account = account
        self.productID = productID
        self.quantity = quantity
        self.setsAppAccountToken = setsAppAccountToken
        self.offer = offer
    }
}
