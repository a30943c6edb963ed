public import Foundation
public import StorekeeperQueue
public import StorekeeperStoreModel
public import StorekeeperTestChain

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
    /// Asked at each finish, before StoreKit counts it (or beside it, where StoreKit's finish is synchronous:
    /// then its answer comes from ``takeFinishProblems()``): nil when right, else what is wrong.
    func setFinishWitness(_ witness: (@Sendable (LifeFinish) async -> String?)?) async
    /// Returns once the app has handled everything StoreKit gave it so far.
    func settled() async
    /// The transactions the app finished.
    var finishedTransactionIDs: Set<String> { get async }
    /// What is wrong in how the app used StoreKit, in order.
    var violations: [String] { get async }
    /// What StoreKit counted: deliveries (updates or observer calls, purchases answered) and finishes.
    var tally: DeviceTally { get async }

    // The hooks below have defaults that do nothing: StoreKit 2 needs none of them; StoreKit 1 needs each.

    /// The launch's queue is made, not yet started: StoreKit may tell the app what it holds now. `crash` is
    /// what StoreKit calls when the app crashes as it finishes a transaction (the driver closes the journal).
    func started(_ queue: TransactionQueue, crash: @escaping @Sendable () -> Void) async
    /// The launch that crashed is over (its queue stopped): StoreKit's side of the process's end.
    func crashed() async
    /// Several transactions arrive while the app is not running, at once.
    func receiveWhileQuit(_ transactions: [DeviceTransaction]) async
    /// A step's transactions reached the device: StoreKit catches up with the model's world (its receipt).
    func stepDelivered() async
    /// Before a checkpoint's reading of entitlements: StoreKit's own refresh (StoreKit 1's receipt).
    func refreshBeforeCheckpoint() async throws
    /// The App Store's storefront changes.
    func changeStorefront() async
    /// What the finish witness found wrong since last asked, where StoreKit's finish does not wait for it.
    func takeFinishProblems() async -> [String]
    /// The faults StoreKit drew itself, by kind (where it draws its own: ``DeviceLifeDriver/storeKitDrawsFaults``).
    var faultCounts: [String: Int] { get async }
    /// The name of ``expected(_:of:in:spendDifference:)`` in a failure, when it is not the model's expectation as it is.
    var projection: String? { get }
    /// The model's expectation as this StoreKit can tell it to a device; `spendDifference`: by how much the
    /// device's spends exceed the model's, by balance.
    func expected(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, spendDifference: [String: Int])
        -> ExpectedEntitlements
    /// Each balance as the device keeps it, where it may differ from the model's (`modelExpected`'s, after a
    /// spend the model accepted): spends are then judged by it. Nil: the device's balance is the model's.
    func deviceBalances(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, spendDifference: [String: Int])
        -> [String: Int]?
}

extension LifeDevice {
    public func started(_ queue: TransactionQueue, crash: @escaping @Sendable () -> Void) async {}
    public func crashed() async {}
    public func receiveWhileQuit(_ transactions: [DeviceTransaction]) async {
        for transaction in transactions { await receive(transaction, unverified: false) }
    }
    public func stepDelivered() async {}
    public func refreshBeforeCheckpoint() async throws {}
    public func changeStorefront() async {}
    public func takeFinishProblems() async -> [String] { [] }
    public var faultCounts: [String: Int] { get async { [:] } }
    public var projection: String? { nil }
    public func expected(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, spendDifference: [String: Int])
        -> ExpectedEntitlements { modelExpected }
    public func deviceBalances(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, spendDifference: [String: Int])
        -> [String: Int]? { nil }
}

/// A transaction the app finishes, as the finish witness is asked about it.
public struct LifeFinish: Sendable {
    /// The model's transaction id.
    public var transactionID: String
    /// Its product.
    public var productID: String
    /// The model's transaction (nil when the model has none of that id).
    public var payload: TransactionPayload?
    /// The device was told it is revoked (StoreKit 1's receipt lists it canceled), whatever the model says now.
    public var revokedOnDevice = false
    /// The subscription's end as the device was told it, when it differs from the payload's (StoreKit 1's receipt).
    public var endOnDevice: Date?
    /// A restore of a product the receipt records: it owns through the receipt, its plan commits nothing first.
    public var restoredFromReceipt = false

    /// A finish of `payload`, told as it is.
    public init(payload: TransactionPayload) {
        transactionID = payload.transactionID
        productID = payload.productID
        self.payload = payload
    }

    /// A finish of the model's transaction `transactionID` of `productID`.
    public init(transactionID: String, productID: String, payload: TransactionPayload?) {
        self.transactionID = transactionID
        self.productID = productID
        self.payload = payload
    }
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
