import Foundation
import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime
import StorekeeperStoreKit
public import StorekeeperStoreModel
import StorekeeperTestChain

/// A device of a life on StoreKit 1: the model-driven ``ModelStoreKit1Device`` and, at each launch, a new
/// `StoreKit1Backend` over the launch's payment queue and the device's receipt, attached as StoreKit's observer.
///
/// What StoreKit 1 needs of the common driver (``DeviceLifeDriver``): its finish is synchronous, so the finish
/// witness runs beside it and its answers are collected when the app settles; it may crash the app as it
/// finishes (the driver closes the journal); a checkpoint reads a refreshed receipt first; and the model's
/// expectation is projected to what StoreKit 1 can tell a device (``StoreKit1Projection``).
public final class StoreKit1LifeDevice: LifeDevice, Sendable {
    /// The device's StoreKit.
    public let storeKit: ModelStoreKit1Device
    private let policy: CompiledPolicy
    /// The model as the finish witness reads it (the driver gives it at each step).
    private let model: ModelBox
    /// The backend of the current launch.
    private let currentBackend = Locked<StoreKit1Backend?>(nil)
    /// The finish witness's checks not taken yet.
    private let checks = Locked<[Task<String?, Never>]>([])

    /// The device of `appleID` in the life of `seed` whose model starts as `model`.
    public init(appleID: String, policy: CompiledPolicy, model: StoreModel, faults: StoreKit1Faults, seed: UInt64) {
        storeKit = ModelStoreKit1Device(appleID: appleID, policy: policy, model: model, faults: faults, seed: seed)
        self.policy = policy
        self.model = ModelBox(model)
    }

    public var appleID: String { storeKit.appleID }
    public var verifies: Bool { false }

    private var backend: StoreKit1Backend? {
        get { currentBackend.withLock { $0 } }
        set { currentBackend.withLock { $0 = newValue } }
    }

    public func launch(account: String) async -> any StoreBackend {
        let backend = StoreKit1Backend(policy: policy, paymentQueue: storeKit.newLaunch(), receipt: storeKit.appReceipt)
        self.backend = backend
        return backend
    }

    /// StoreKit calls the observer at once with what it holds unfinished; the backend keeps it until the queue connects.
    public func started(_ queue: TransactionQueue, crash: @escaping @Sendable () -> Void) async {
        guard let backend else { return }
        await storeKit.attach(backend, onCrash: crash)
    }

    public func crashed() async {
        backend?.stop()
        backend = nil
    }

    public func quit() async {
        backend?.stop()
        backend = nil
        storeKit.terminate()
    }

    public func expectPurchase(_ transaction: DeviceTransaction, unverified: Bool) async {
        storeKit.answerNextPayment(with: transaction.payload)
        await storeKit.observe(model.value, messages: [])
    }

    public func receive(_ transaction: DeviceTransaction, unverified: Bool) async {
        await storeKit.observe(model.value, messages: [.transaction(transaction)])
    }

    public func receiveWhileQuit(_ transactions: [DeviceTransaction]) async {
        await storeKit.observe(model.value, messages: transactions.map(StoreMessage.transaction))
    }

    /// The model's clock and receipt for a step without messages too.
    public func stepDelivered() async {
        await storeKit.observe(model.value, messages: [])
    }

    /// StoreKit 1 holds nothing unverified: the backend reads the receipt, it does not verify it.
    public func verifyHeld() async {}

    /// StoreKit 1 delivers a finished transaction again by its own faults (``StoreKit1Faults``).
    public func redeliver(transactionID: String) async -> Bool { false }

    public func observe(_ model: StoreModel) async { self.model.value = model }

    /// StoreKit 1 reports no refund, reversal or extension as an event, only in the receipt
    /// (https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms): the app refreshes it.
    public func refreshBeforeCheckpoint() async throws {
        try await backend?.refreshReceipt()
    }

    public func changeStorefront() async { storeKit.changeStorefront() }

    /// StoreKit 1's `finishTransaction(_:)` is synchronous: the question is asked beside it, with what the
    /// device was told at that moment (its receipt), and answered when the app settles.
    public func setFinishWitness(_ witness: (@Sendable (LifeFinish) async -> String?)?) async {
        guard let witness else {
            storeKit.setFinishWitness(nil)
            return
        }
        let model = model
        let policy = policy
        storeKit.setFinishWitness { [weak self] modelID, productID, state in
            guard let self, let id = modelID else { return nil }
            var finish = LifeFinish(transactionID: id, productID: productID, payload: model.value.world.transactions[id])
            // The receipt on the device lists it canceled: the app rightly finishes it as revoked, though the
            // App Store may have reversed the refund since (the device learns that from its next receipt).
            let receipt = storeKit.receiptOnDevice().flatMap { try? AppReceiptPayload(receipt: $0) }
            finish.revokedOnDevice = receipt?.cancellations.contains { $0.transactionID == id } ?? false
            // A subscription's end as the device was told it (the receipt's expires_date): an extension since
            // reaches the device with its next receipt.
            finish.endOnDevice = receipt?.entry(transactionID: id)?.expirationDate
            // A restore of a product the receipt records: what it owns is the receipt's entry, which the queue
            // reads at its next refresh or launch.
            finish.restoredFromReceipt = state == .restored
                && policy.product(id: productID).map { policy.product($0).persistence == .receipt } == true
            let check = Task { await witness(finish) }
            checks.withLock { $0.append(check) }
            return nil
        }
    }

    public func takeFinishProblems() async -> [String] {
        let taken = checks.withLock { checks in
            defer { checks.removeAll() }
            return checks
        }
        var problems: [String] = []
        for check in taken {
            if let problem = await check.value { problems.append(problem) }
        }
        return problems
    }

    public func settled() async {}

    public var finishedTransactionIDs: Set<String> { get async { Set(storeKit.finished.compactMap(\.modelID)) } }

    public var violations: [String] { get async { storeKit.violations } }

    public var tally: DeviceTally {
        get async {
            let counters = storeKit.statistics
            return DeviceTally(deliveries: counters.purchased + counters.restored + counters.redeliveredAtLaunch + counters.afterFinish
                                   + counters.duplicates,
                               finishes: counters.finishes)
        }
    }

    public var faultCounts: [String: Int] {
        get async {
            let counters = storeKit.statistics
            return ["duplicate": counters.duplicates, "reordered": counters.reorders, "redelivered after finish": counters.afterFinish,
                    "crash at finish": counters.crashes, "restore": counters.restores, "family revocation": counters.revocations,
                    "storefront change": counters.storefrontChanges]
        }
    }

    public var projection: String? { "StoreKit 1 projection" }

    public func expected(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, spendDifference: [String: Int])
        -> ExpectedEntitlements {
        StoreKit1Projection.expected(modelExpected, of: account, in: model, policy: policy, spendDifference: spendDifference)
    }

    public func deviceBalances(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, spendDifference: [String: Int])
        -> [String: Int]? {
        StoreKit1Projection.deviceNet(modelExpected, of: account, in: model, policy: policy, spendDifference: spendDifference)
    }
}

/// The model as the finish witness reads it (the driver gives it at each step).
final class ModelBox: Sendable {
    private let model: Locked<StoreModel>
    init(_ model: StoreModel) { self.model = Locked(model) }
    var value: StoreModel {
        get { model.withLock { $0 } }
        set { model.withLock { $0 = newValue } }
    }
}
