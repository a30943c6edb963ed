import StorekeeperQueue
import StorekeeperStoreModel
import StorekeeperTestChain

/// One Apple ID's device as a driver of lives sees it: a model-driven StoreKit (1 or 2) that outlives the app's
/// launches, and the backend each launch makes over it. The driver owns the queue and its journal; the device
/// owns what StoreKit holds.
public protocol LifeDevice: AnyObject, Sendable {
    /// The Apple ID signed in to the App Store on the device.
    var appleID: String { get }
    /// Whether this StoreKit can give a transaction unverified (StoreKit 2's `VerificationResult`); a
    /// driver draws that fault only then.
    var verifies: Bool { get }

    /// The app launches: StoreKit's side of it, then a new backend over it, for a queue signed in as
    /// `account` (its `applicationUsername`).
    func launch(account: String) async -> any StoreBackend
    /// The app quits (its queue stopped already): what arrives until the next launch waits for it.
    func quit() async
    /// The next purchase of the transaction's product answers with it (unverified first, when asked and
    /// ``verifies``).
    func expectPurchase(_ transaction: DeviceTransaction, unverified: Bool) async
    /// The App Store sends the device a transaction, outside a purchase.
    func receive(_ transaction: DeviceTransaction, unverified: Bool) async
    /// StoreKit verifies what it gave unverified, and gives it again.
    func verifyHeld() async
    /// StoreKit gives a transaction the app finished once more; false when it cannot now.
    func redeliver(transactionID: String) async -> Bool
    /// The model as it is now (subscription status, receipts).
    func observe(_ model: StoreModel) async
    /// Asked at each finish, before StoreKit counts it: nil when right, else what is wrong.
    func setFinishWitness(_ witness: (@Sendable (TransactionPayload) async -> String?)?) async
    /// Returns once the app has handled everything StoreKit gave it so far.
    func settled() async
    /// The transactions the app finished.
    var finishedTransactionIDs: Set<String> { get async }
    /// What is wrong in how the app used StoreKit, in order.
    var violations: [String] { get async }
    /// What StoreKit counted: deliveries (updates or observer calls, purchases answered) and finishes.
    var tally: DeviceTally { get async }
}

/// What a device's StoreKit counted.
public struct DeviceTally: Sendable, Hashable {
    /// Transactions StoreKit gave the app (updates, launch replays, purchases answered).
    public var deliveries = 0
    /// Of those, given unverified.
    public var unverified = 0
    /// Finishes of unfinished transactions.
    public var finishes = 0
    /// Finishes of transactions finished already.
    public var finishesAgain = 0

    /// A tally.
    public init(deliveries: Int = 0, unverified: Int = 0, finishes: Int = 0, finishesAgain: Int = 0) {
        self.deliveries = deliveries
        self.unverified = unverified
        self.finishes = finishes
        self.finishesAgain = finishesAgain
    }
}
