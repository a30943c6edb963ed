import Foundation
import StorekeeperCore
public import StorekeeperRuntime
public import StorekeeperStoreKit
public import StorekeeperStoreModel
public import StorekeeperTestChain

/// StoreKit 1 on the device of one Apple ID, driven by the App Store model (docs/store-model.md): the payment
/// queue StoreKit keeps for the device (it outlives each launch of the app), the app receipt on the device, and
/// what the observer of each launch is told. Every rule is Apple's, cited where it is applied; everything it
/// delivers is derived from the model's world for this Apple ID.
///
/// Identifiers. A purchased transaction's `transactionIdentifier` is the model's transaction id: StoreKit 1's
/// identifier is the receipt's `transaction_id`
/// (https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionidentifier), which is
/// the App Store's `transactionId` that StoreKit 2 and the model use
/// (https://developer.apple.com/documentation/appstoreserverapi/transactionid). A restore is a new transaction
/// with an identifier of its own, new at every restore, naming the purchase it restores in `original`
/// (https://developer.apple.com/documentation/storekit/skpaymenttransaction/original); ``modelTransactionID(of:)``
/// maps every StoreKit 1 identifier back to the model's.
///
/// A class: the backend of each launch calls it (through ``ModelSKPaymentQueue``) from the queue's tasks while
/// the driver hands it the model's messages; everything that changes is behind one lock (`state`), and the backend is called outside it.
public final class ModelStoreKit1Device: Sendable {
    /// The Apple ID signed in to the App Store on the device.
    public let appleID: String
    /// The catalog (StoreKit knows each product's type from App Store Connect; the model's catalog says it).
    public let policy: CompiledPolicy
    /// The app's bundle id, written into the receipt.
    public let bundleID: String
    /// How StoreKit misbehaves.
    public let faults: StoreKit1Faults

    /// A transaction StoreKit holds in the payment queue until the app finishes it.
    struct Held: Sendable {
        /// The StoreKit 1 identifier (a failed transaction's local key: it has none).
        var key: String
        var modelID: String?
        var state: StoreKit1TransactionState
        var payment: StoreKit1Payment
        var date: Date?
        /// For a restore: the restored purchase's identifier and date.
        var original: (id: String, date: Date)?
        var error: StoreKit1Error?
    }

    /// What a launch of the app reports to the driver (counters).
    public struct Counters: Sendable, Hashable {
        /// Transactions delivered purchased (payments answered, renewals, family-shared copies, …).
        public var purchased = 0
        /// Transactions delivered restored.
        public var restored = 0
        /// Restores asked for (`restoreCompletedTransactions`).
        public var restores = 0
        /// Deliveries repeated on purpose.
        public var duplicates = 0
        /// Deliveries of several transactions shuffled.
        public var reorders = 0
        /// Finished transactions delivered again.
        public var afterFinish = 0
        /// Transactions delivered again at a launch because they were left unfinished.
        public var redeliveredAtLaunch = 0
        /// `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)` calls.
        public var revocations = 0
        /// `finishTransaction(_:)` calls.
        public var finishes = 0
        /// Crashes as a transaction was finished.
        public var crashes = 0
        /// Receipt refreshes (`SKReceiptRefreshRequest`).
        public var refreshes = 0
        /// Payments the model had no transaction for (answered failed).
        public var unanswered = 0
        /// `paymentQueueDidChangeStorefront(_:)` calls.
        public var storefrontChanges = 0
    }

    /// Everything that changes, behind one lock: the backend of each launch calls in from the queue's tasks
    /// while the driver hands the model's messages.
    private let state: Locked<State>

    /// What changes as the app launches, pays, finishes and restores, and as the model's world moves on.
    fileprivate struct State {
        /// The catalog, for each product's type (a copy of the device's, so that the receipt is written under the lock).
        let policy: CompiledPolicy
        let appleID: String
        let bundleID: String
        var model: StoreModel
        var random: SplitMix64
        /// The payment queue: what StoreKit holds until finished, in the order it came.
        var held: [Held] = []
        /// This launch's objects, by key (StoreKit hands one object per transaction per process).
        var objects: [String: ModelSKPaymentTransaction] = [:]
        /// The launch whose observer StoreKit calls (nil: the app is not running).
        var launch: Int?
        var launches = 0
        weak var backend: StoreKit1Backend?
        /// The model's transactions StoreKit already put on this device's queue, or answered a payment with.
        var known: Set<String> = []
        /// The answers to the app's next payments, by product: the model's transaction of the purchase.
        var answers: [String: [TransactionPayload]] = [:]
        /// Restores made: the restore's identifier and the model's transaction it restores.
        var restoreLines: [(id: String, modelID: String)] = []
        var restoreCount = 0
        var failedCount = 0
        /// StoreKit 1 identifier → the model's transaction id.
        var identifiers: [String: String] = [:]
        /// The receipt StoreKit last wrote to the device (nil: none yet).
        var receipt: [UInt8]?
        /// Finished transactions to deliver again at the next delivery (fault).
        var again: [Held] = []
        /// Products whose family-shared copy was revoked while the app was not running.
        var revokedWhileOff: [String] = []
        /// What was finished, in order: the model's transaction id (nil for a failed one) and the product.
        var finishedLog: [(modelID: String?, productID: String)] = []
        var counters = Counters()
        /// Called when the app crashes as it finishes a transaction (the driver closes the journal at once).
        var onCrash: (@Sendable () -> Void)?
        var witness: FinishWitness?
        var problems: [String] = []
    }

    /// A question the driver answers when the app finishes a transaction (synchronously, as
    /// `finishTransaction(_:)` is): nil when the finish is right now, else what is wrong (the plan not yet
    /// committed in the journal, say). Given the model's transaction id (nil for a failed transaction), the
    /// product and the transaction's state.
    public typealias FinishWitness = @Sendable (_ modelID: String?, _ productID: String, _ state: StoreKit1TransactionState) -> String?

    /// StoreKit 1 for `appleID`'s device, with faults drawn from `seed` (the life's).
    public init(appleID: String, policy: CompiledPolicy, model: StoreModel, faults: StoreKit1Faults, seed: UInt64) {
        self.appleID = appleID
        self.policy = policy
        bundleID = model.configuration.bundleID
        self.faults = faults
        // Its own stream, so that the life's draws stay the life's.
        let random = SplitMix64(seed: seed ^ 0x5B1D_5EED_0000_0001 ^ UInt64(truncatingIfNeeded: appleID.hashValueStable))
        state = Locked(State(policy: policy, appleID: appleID, bundleID: bundleID, model: model, random: random))
    }

    // MARK: Launches

    /// A new launch of the app: the payment queue its backend is made over. Call ``attach(_:)`` next.
    public func newLaunch() -> ModelSKPaymentQueue {
        let launch = state.withLock { state in
            state.launches += 1
            state.launch = state.launches
            state.backend = nil
            state.objects.removeAll()
            return state.launches
        }
        return ModelSKPaymentQueue(device: self, launch: launch)
    }

    /// The receipt StoreKit keeps on this device.
    public var appReceipt: ModelAppReceipt { ModelAppReceipt(device: self) }

    /// The launch's backend registered its observer: StoreKit delivers what the queue holds unfinished at once
    /// ("StoreKit calls your observer's paymentQueue(_:updatedTransactions:) method every time your app launches
    /// or resumes from background to tell you about transactions in the queue",
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/finishtransaction(_:)), and the
    /// revocations of Family Sharing that happened while the app was not running.
    public func attach(_ backend: StoreKit1Backend, onCrash: (@Sendable () -> Void)? = nil) async {
        let (unfinished, revoked): ([ModelSKPaymentTransaction], [String]) = state.withLock { state in
            state.backend = backend
            state.onCrash = onCrash
            let unfinished = state.held.map { state.object(for: $0) }
            state.counters.redeliveredAtLaunch += unfinished.count
            let revoked = state.revokedWhileOff
            state.revokedWhileOff.removeAll()
            return (unfinished, revoked)
        }
        deliver(unfinished, to: backend)
        if !revoked.isEmpty {
            state.withLock { $0.counters.revocations += 1 }
            await backend.didRevokeEntitlements(forProductIdentifiers: revoked)
        }
    }

    /// The app ends (quits or crashes): StoreKit keeps what is unfinished for the next launch.
    public func terminate() {
        state.withLock { state in
            state.launch = nil
            state.backend = nil
            state.onCrash = nil
            state.objects.removeAll()
        }
    }

    /// Whether the app is running.
    public var isRunning: Bool { state.withLock { $0.launch != nil } }

    // MARK: The model's world

    /// The model after a step, and what Apple sent at it: the transactions this Apple ID's device gets.
    ///
    /// - A transaction of this Apple ID new to the device is put on the payment queue, `purchased`: a renewal
    ///   ("a renewal is a new transaction": StoreKit delivers background subscription renewals to the observer,
    ///   https://developer.apple.com/documentation/storekit/setting-up-the-transaction-observer-for-the-payment-queue),
    ///   a family member's copy ("each family member gets their own unique receipts and transactions. Process the
    ///   transactions in the same way you already handle purchases",
    ///   https://developer.apple.com/documentation/storekit/supporting-family-sharing-in-your-app), the new
    ///   period of a plan changed in the App Store's settings. Delivered now if the app runs, else at its launch.
    /// - A new version of a transaction the device has puts nothing on the queue: StoreKit 1 has no event for
    ///   a refund, a reversal or an extension; the App Store's receipt changes (``receiptLines()``), which the
    ///   device sees when StoreKit next writes its receipt.
    /// - A family-shared copy revoked (`FAMILY_REVOKE`) calls `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`
    ///   with its product: "whenever App Store revokes in-app purchases for a family member based on changes in
    ///   Family Sharing"
    ///   (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:));
    ///   when the app is not running, at its next launch.
    public func observe(_ model: StoreModel, messages: [StoreMessage]) async {
        var newlyHeld: [Held] = []
        var revoked: [String] = []
        let running: StoreKit1Backend? = state.withLock { state in
            state.model = model
            for case .transaction(let device) in messages where device.appleID == appleID {
                let payload = device.payload
                if !state.known.contains(payload.transactionID) {
                    guard payload.revocationDate == nil else { continue }
                    state.known.insert(payload.transactionID)
                    state.identifiers[payload.transactionID] = payload.transactionID
                    let item = Held(key: payload.transactionID, modelID: payload.transactionID, state: .purchased,
                                    payment: StoreKit1Payment(productID: payload.productID, quantity: payload.quantity),
                                    date: payload.purchaseDate)
                    state.held.append(item)
                    newlyHeld.append(item)
                } else if payload.revocationType == .familyRevoke, payload.ownership == .familyShared, !revoked.contains(payload.productID) {
                    revoked.append(payload.productID)
                }
            }
            // StoreKit writes the receipt as the transaction completes, whether the app runs or not: the
            // observer finds it listed when it is delivered.
            if !newlyHeld.isEmpty { state.writeReceipt() }
            guard state.launch != nil, let backend = state.backend else {
                state.revokedWhileOff += revoked.filter { !state.revokedWhileOff.contains($0) }
                return nil
            }
            state.counters.purchased += newlyHeld.count
            return backend
        }
        guard let backend = running else { return }
        let objects = state.withLock { state in newlyHeld.map { state.object(for: $0) } }
        if !objects.isEmpty { deliver(objects, to: backend) }
        if !revoked.isEmpty {
            state.withLock { $0.counters.revocations += 1 }
            await backend.didRevokeEntitlements(forProductIdentifiers: revoked)
        }
    }

    /// The app is about to add a payment for `payload`'s product: StoreKit answers it with this transaction
    /// (the model already made the purchase; the app's payment is how it reaches the device).
    public func answerNextPayment(with payload: TransactionPayload) {
        state.withLock { state in
            state.known.insert(payload.transactionID)
            state.answers[payload.productID, default: []].append(payload)
        }
    }

    /// The device's App Store storefront changes (the user moved to another country's store): StoreKit calls
    /// `paymentQueueDidChangeStorefront(_:)` if the app runs
    /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuedidchangestorefront(_:)).
    /// The model has one storefront, so nothing else changes.
    public func changeStorefront() {
        let backend: StoreKit1Backend? = state.withLock { state in
            guard state.launch != nil, let backend = state.backend else { return nil }
            state.counters.storefrontChanges += 1
            return backend
        }
        backend?.storefrontDidChange()
    }

    // MARK: SKPaymentQueue

    /// `add(_:)`: the transaction is `purchasing`, then `purchased` with the model's transaction (the
    /// observer is told of each state, https://developer.apple.com/documentation/storekit/skpaymenttransactionstate),
    /// or `failed` when the model made no purchase for it.
    func addPayment(_ payment: StoreKit1Payment, launch caller: Int) {
        let (backend, object, answer): (StoreKit1Backend?, ModelSKPaymentTransaction, TransactionPayload?) = state.withLock { state in
            let object = ModelSKPaymentTransaction(payment: payment, state: .purchasing)
            guard caller == state.launch, let backend = state.backend else { return (nil, object, nil) }
            var queued = state.answers[payment.productID] ?? []
            let answer = queued.isEmpty ? nil : queued.removeFirst()
            state.answers[payment.productID] = queued.isEmpty ? nil : queued
            return (backend, object, answer)
        }
        guard let backend else { return }
        backend.updatedTransactions([object])
        let done: ModelSKPaymentTransaction = state.withLock { state in
            if let answer {
                state.identifiers[answer.transactionID] = answer.transactionID
                object.become(.purchased, identifier: answer.transactionID, date: answer.purchaseDate)
                state.held.append(Held(key: answer.transactionID, modelID: answer.transactionID, state: .purchased, payment: payment,
                                       date: answer.purchaseDate))
                state.counters.purchased += 1
                state.objects[answer.transactionID] = object
                // StoreKit writes the new receipt before telling the observer: the backend reads it then.
                state.writeReceipt()
            } else {
                state.failedCount += 1
                state.counters.unanswered += 1
                let key = "failed-\(state.failedCount)"
                let error = StoreKit1Error(domain: StoreKit1Error.storeKitDomain, code: 3, message: "the model made no purchase of \(payment.productID)")
                object.become(.failed, error: error)
                state.held.append(Held(key: key, modelID: nil, state: .failed, payment: payment, date: nil, error: error))
                state.objects[key] = object
            }
            return object
        }
        deliver([done], to: backend)
    }

    /// `finishTransaction(_:)`: the transaction leaves the queue and the observer is told
    /// (`paymentQueue(_:removedTransactions:)`). StoreKit raises an exception for a transaction still
    /// purchasing (https://developer.apple.com/documentation/storekit/skpaymentqueue/finishtransaction(_:)):
    /// counted as a crash of the app. A consumable's receipt entry goes with it: it "is kept in the receipt
    /// until your app finishes that transaction"
    /// (https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html).
    func finish(_ transaction: any StoreKit1Transaction, launch caller: Int) {
        let witness: FinishWitness? = state.withLock { state in
            guard caller == state.launch else { return nil }
            if transaction.purchaseState == .purchasing {
                state.problems.append("finishTransaction of a purchasing transaction of \(transaction.storePayment.productID): StoreKit raises an exception")
            }
            return state.witness
        }
        let modelID = transaction.storeTransactionID.flatMap { id in state.withLock { $0.identifiers[id] } }
        if let witness, let problem = witness(modelID, transaction.storePayment.productID, transaction.purchaseState) {
            state.withLock { $0.problems.append(problem) }
        }
        let faults = faults
        let (backend, crash): (StoreKit1Backend?, (@Sendable () -> Void)?) = state.withLock { state in
            guard caller == state.launch, let backend = state.backend else { return (nil, nil) }
            state.counters.finishes += 1
            let objects = state.objects
            guard let index = state.held.firstIndex(where: { objects[$0.key] === transaction }) else { return (backend, nil) }
            let item = state.held.remove(at: index)
            state.finishedLog.append((item.modelID, item.payment.productID))
            if item.modelID != nil, state.random.chance(faults.afterFinish) { state.again.append(item) }
            if state.random.chance(faults.crashAtFinish), let onCrash = state.onCrash {
                state.counters.crashes += 1
                return (nil, onCrash)
            }
            return (backend, nil)
        }
        if let crash {
            // The process ends right after StoreKit finished the transaction: nothing after commits.
            terminate()
            crash()
            return
        }
        backend?.removedTransactions([transaction])
    }

    /// `restoreCompletedTransactions()`: each completed purchase this Apple ID holds is delivered again,
    /// `restored`, as a new transaction naming it in `original`; then
    /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`. Not restored, as Apple's page says: "items that
    /// are not restorable, such as a non-renewing subscription or a consumable product"
    /// (https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()).
    /// Purchases the App Store canceled (refunded, revoked, upgraded from) are no longer the user's to restore.
    func restore(launch caller: Int) {
        let (backend, restored): (StoreKit1Backend?, [ModelSKPaymentTransaction]) = state.withLock { state in
            guard caller == state.launch, let backend = state.backend else { return (nil, []) }
            state.counters.restores += 1
            var restored: [ModelSKPaymentTransaction] = []
            let world = state.model.world
            for id in world.transactionIDs(of: appleID) {
                guard let payload = world.transactions[id], Self.isRestorable(payload, policy: policy), State.cancellation(of: payload) == nil
                else { continue }
                state.restoreCount += 1
                let restoreID = String(3_000_000_000_000_000 + state.restoreCount)
                state.identifiers[restoreID] = id
                state.restoreLines.append((restoreID, id))
                let payment = StoreKit1Payment(productID: payload.productID, quantity: payload.quantity)
                let item = Held(key: restoreID, modelID: id, state: .restored, payment: payment, date: state.model.now,
                                original: (id, payload.purchaseDate))
                state.held.append(item)
                restored.append(state.object(for: item))
            }
            state.counters.restored += restored.count
            state.writeReceipt()
            return (backend, restored)
        }
        guard let backend else { return }
        if !restored.isEmpty { deliver(restored, to: backend) }
        backend.restoreFinished()
    }

    /// Whether `restoreCompletedTransactions()` restores a transaction of this product: non-consumables and
    /// auto-renewable subscriptions (the page above).
    static func isRestorable(_ payload: TransactionPayload, policy: CompiledPolicy) -> Bool {
        guard let handle = policy.product(id: payload.productID) else { return false }
        let type = policy.product(handle).type
        return type == .nonConsumable || type == .autoRenewableSubscription
    }

    func observerRemoved(launch caller: Int) {}

    /// `transactions`: the queue's unfinished transactions, as this launch's objects.
    func unfinishedObjects(launch caller: Int) -> [any StoreKit1Transaction] {
        state.withLock { state in
            guard caller == state.launch else { return [] }
            return state.held.map { state.object(for: $0) }
        }
    }

    // MARK: The receipt

    /// The receipt StoreKit last wrote on the device.
    func receiptOnDevice() -> [UInt8]? { state.withLock { $0.receipt } }

    /// `SKReceiptRefreshRequest`: the App Store's receipt of now is written to the device.
    func refreshReceipt() {
        state.withLock { state in
            state.counters.refreshes += 1
            state.writeReceipt()
        }
    }

    // MARK: Delivering

    /// `paymentQueue(_:updatedTransactions:)` with `transactions`, with the faults: shuffled, one repeated,
    /// and the finished transactions kept for it delivered again (new objects: a new delivery).
    private func deliver(_ transactions: [ModelSKPaymentTransaction], to backend: StoreKit1Backend) {
        let faults = faults
        let batch: [ModelSKPaymentTransaction] = state.withLock { state in
            var batch = transactions
            for item in state.again {
                batch.append(ModelSKPaymentTransaction(payment: item.payment, state: item.state, identifier: item.key, date: item.date,
                                                       original: item.original.map { ModelSKPaymentTransaction(payment: item.payment, state: .purchased,
                                                                                                               identifier: $0.id, date: $0.date) }))
                state.counters.afterFinish += 1
            }
            state.again.removeAll()
            if let repeated = batch.first(where: { $0.purchaseState == .purchased || $0.purchaseState == .restored }),
               state.random.chance(faults.duplicate) {
                batch.append(repeated)
                state.counters.duplicates += 1
            }
            if batch.count > 1, state.random.chance(faults.reorder) {
                for index in stride(from: batch.count - 1, to: 0, by: -1) { batch.swapAt(index, state.random.next(below: index + 1)) }
                state.counters.reorders += 1
            }
            return batch
        }
        backend.updatedTransactions(batch)
    }

    // MARK: For the driver

    /// The model's transaction id of a StoreKit 1 identifier (a restore's: the purchase it restores).
    public func modelTransactionID(of storeKitID: String) -> String? { state.withLock { $0.identifiers[storeKitID] } }

    /// What was finished so far, in order.
    public var finished: [(modelID: String?, productID: String)] { state.withLock { $0.finishedLog } }

    /// The counters so far.
    public var statistics: Counters { state.withLock { $0.counters } }

    /// Sets the question asked at each finish.
    public func setFinishWitness(_ witness: FinishWitness?) { state.withLock { $0.witness = witness } }

    /// What is wrong with how the app used StoreKit (a transaction finished while purchasing, a finish the
    /// witness refused), in order.
    public var violations: [String] { state.withLock { $0.problems } }

    /// The model's transactions StoreKit holds unfinished for the device.
    public var unfinishedModelIDs: [String] { state.withLock { $0.held.compactMap(\.modelID) } }
}

// MARK: Under the lock

extension ModelStoreKit1Device.State {
    /// The App Store's receipt for this Apple ID now, written to the device. StoreKit writes it when a
    /// transaction completes (purchased or restored) and when the app refreshes it; a refund, a reversal or
    /// an extension alone writes nothing on the device.
    mutating func writeReceipt() {
        receipt = StoreKit1ReceiptEncoder.receipt(bundleID: bundleID, created: model.now, lines: receiptLines())
    }

    /// The `in_app` entries of the App Store's receipt for this Apple ID now, from the model's world
    /// (https://developer.apple.com/documentation/appstorereceipts/responsebody/receipt/in_app): "Purchases for
    /// non-consumable products, auto-renewable subscriptions, and non-renewing subscriptions remain in the
    /// receipt indefinitely"; a consumable only until the app finishes its transaction. Each period of an
    /// auto-renewable subscription is an entry of its own with its `expires_date`, the chain's first
    /// transaction as `original_transaction_id`. Family-shared copies are the member's own. Each restore
    /// is an entry with its own `transaction_id` and the restored purchase as original ("Receipt Fields",
    /// 1703 and 1705).
    func receiptLines() -> [StoreKit1ReceiptLine] {
        var lines: [StoreKit1ReceiptLine] = []
        let unfinished = Set(held.compactMap(\.modelID))
        for id in model.world.transactionIDs(of: appleID) {
            guard let payload = model.world.transactions[id], let handle = policy.product(id: payload.productID) else { continue }
            let type = policy.product(handle).type
            if type == .consumable, !unfinished.contains(id) { continue }
            lines.append(line(payload, type: type, transactionID: id))
        }
        for restore in restoreLines {
            guard let payload = model.world.transactions[restore.modelID], let handle = policy.product(id: payload.productID) else { continue }
            var line = line(payload, type: policy.product(handle).type, transactionID: restore.id)
            if policy.product(handle).type != .autoRenewableSubscription { line.originalTransactionID = restore.modelID }
            lines.append(line)
        }
        return lines
    }

    private func line(_ payload: TransactionPayload, type: ProductType, transactionID: String) -> StoreKit1ReceiptLine {
        let renewable = type == .autoRenewableSubscription
        return StoreKit1ReceiptLine(
            quantity: payload.quantity, productID: payload.productID, transactionID: transactionID,
            originalTransactionID: renewable ? payload.originalTransactionID : payload.transactionID,
            purchaseDate: payload.purchaseDate, originalPurchaseDate: payload.originalPurchaseDate,
            expiresDate: renewable ? payload.expiresDate : nil, webOrderLineItemID: renewable ? payload.webOrderLineItemID.flatMap { Int($0) } : nil,
            cancellationDate: type == .consumable ? nil : Self.cancellation(of: payload))
    }

    /// `cancellation_date`: "the time and date that the App Store refunded a transaction or revoked it from
    /// family sharing … present only if the refund or revocation was for a non-consumable product, an
    /// auto-renewable subscription, or a non-renewing subscription"
    /// (https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms); for a subscription
    /// the customer upgraded from, the upgrade's date ("Receipt Fields", 1712: "For an auto-renewable
    /// subscription plan that was upgraded, the time and date of the upgrade transaction"; the model signs
    /// the upgraded-from version at the upgrade). A refund reversed signs a version without it: the entry
    /// is no longer canceled.
    static func cancellation(of payload: TransactionPayload) -> Date? {
        payload.revocationDate ?? (payload.isUpgraded == true ? payload.signedDate : nil)
    }

    /// This launch's object for a held transaction (made once per launch).
    mutating func object(for item: ModelStoreKit1Device.Held) -> ModelSKPaymentTransaction {
        if let object = objects[item.key] { return object }
        let original = item.original.map { ModelSKPaymentTransaction(payment: item.payment, state: .purchased, identifier: $0.id, date: $0.date) }
        let object = ModelSKPaymentTransaction(payment: item.payment, state: item.state, identifier: item.state == .failed ? nil : item.key,
                                               date: item.date, original: original, error: item.error)
        objects[item.key] = object
        return object
    }
}

private extension String {
    /// A hash that is the same in every process (Swift's `hashValue` is seeded per process).
    var hashValueStable: Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return Int(truncatingIfNeeded: hash)
    }
}
