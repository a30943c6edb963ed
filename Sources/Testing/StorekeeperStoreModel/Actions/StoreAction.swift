/// One thing that happens in the world at the model's `now`.
public enum StoreAction: Sendable, Hashable {
    /// A purchase of any product type (quantity for consumables; with or without appAccountToken; an offer).
    case buy(Purchase)
    /// The app spends a server-kept balance of an app account (recorded only when `canSpend` says so).
    case spend(account: String, balance: String, amount: Int)
    /// The subscriber turns auto-renew on or off.
    case setAutoRenew(appleID: String, originalTransactionID: String, on: Bool)
    /// The Apple ID's payment method starts failing: its next renewals fail.
    case billingFails(appleID: String)
    /// The payment method is fixed: a subscription in grace period or billing retry renews now.
    case billingRecovers(appleID: String)
    /// Upgrade (immediate), downgrade (at the next renewal) or crossgrade within the subscription's group.
    case changeSubscription(appleID: String, originalTransactionID: String, to: String)
    /// Apple refunds a transaction: `percentage` is `revocationPercentage` in milliunits (nil: full refund).
    case refund(transactionID: String, percentage: Int?)
    /// Apple declines a refund request.
    case declineRefund(transactionID: String)
    /// Apple reverses a refund it granted.
    case reverseRefund(transactionID: String)
    /// The customer asks for a refund and Apple asks the developer for consumption information.
    case requestConsumption(transactionID: String)
    /// `appleID` joins the family group that `organizer` organizes (making one if needed).
    case joinFamily(appleID: String, organizer: String)
    /// `appleID` leaves its family group (the organizer leaving disbands it).
    case leaveFamily(appleID: String)
    /// The developer extends the subscription's renewal date by `days` (at most 90).
    case extendRenewal(originalTransactionID: String, days: Int)
    /// The developer raises the price of `productID` in a way that needs subscribers' consent.
    case priceIncrease(productID: String)
    /// The subscriber consents to the pending price increase.
    case consentToPriceIncrease(appleID: String, originalTransactionID: String)
    /// The device of `appleID` now runs the app signed in as `account` (no message; later deliveries to that
    /// device, such as family-shared copies, name that account).
    case signIn(appleID: String, account: String)
}
