public import Foundation
import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime

/// The queue's store over StoreKit 1, the original payment queue
/// (`SKPaymentQueue`): the In-App Purchase guide's transaction observer,
/// with the queue deciding what each update does.
///
/// StoreKit calls the observer (`SKPaymentTransactionObserver`); the observer
/// calls this backend's plain methods (``updatedTransactions(_:)``,
/// ``removedTransactions(_:)``, ``restoreFinished()``, ``restoreFailed(_:)``,
/// ``updatedDownloads(_:)``, ``shouldAddStorePayment(_:)``,
/// ``didRevokeEntitlements(forProductIdentifiers:)``,
/// ``storefrontDidChange()``), which turn them into `StoreEvent`s (or,
/// for the storefront, tell the app). StoreKit's objects are kept until the plan's
/// `finish` step calls ``finish(transactionID:)``, which is the only place
/// `finishTransaction(_:)` is called. Identity is described at
/// `StoreKit1TransactionRegistry` and in docs/storekit-backends.md (StoreKit 1).
///
/// On Apple platforms, `StoreKit1Backend.onDefaultQueue(policy:)`
/// (AppleStoreKit1.swift) makes one over `SKPaymentQueue.default()` and
/// registers its observer. Elsewhere (the tests) any ``StoreKit1PaymentQueue`` will do.
///
/// The backend is also the `HostedContentDownloader` of the `download` step
/// (Apple-hosted content through `SKDownload`) and a `ProductSource`
/// (`SKProductsRequest`).
public final class StoreKit1Backend: StoreBackend, @unchecked Sendable {
    // @unchecked: every mutable field is behind `lock`; the
    // StoreKit objects (`paymentQueue` and the transactions and downloads
    // `state` keeps) are StoreKit's, which calls its observers from any thread.

    /// The compiled catalog: product types, and which transactions carry the receipt.
    public let policy: CompiledPolicy
    let paymentQueue: any StoreKit1PaymentQueue
    let receipt: any StoreKit1AppReceipt
    let productsRequester: (any StoreKit1ProductsRequester)?
    /// Where Apple-hosted content kept in `documents` storage is moved (nil: left where StoreKit put it).
    let documentsFolder: URL?
    /// Not StorekeeperCore's `Locked`: that is `package`, and
    /// StoreKitMirror compiles these sources as another package.
    private let lock = NSLock()
    private var guarded = State()
    /// The transaction observers registered with `paymentQueue` and not
    /// removed yet; kept alive here (the observer holds the backend weakly).
    private var observers: [AnyObject] = []

    struct State {
        var sink: StoreEventSink?
        /// What StoreKit reported before the queue connected, in order.
        var early: [StoreEvent] = []
        var registry = StoreKit1TransactionRegistry()
        var downloads = StoreKit1DownloadJobs()
        /// Transactions delivered purchased or restored in this process, by
        /// product, in order, consumables left out: what a revocation of the
        /// product may take back.
        var completed: [String: [StoreKit1HeldTransaction]] = [:]
        /// Canceled transactions (receipt field 1712) already sent to the queue as revoked.
        var reportedCancellations: Set<String> = []
        /// Who hears that the App Store storefront changed (``storefrontChanges()``).
        var storefrontSubscribers: [UUID: AsyncStream<Void>.Continuation] = [:]
    }

    /// Makes a backend over a payment queue.
    ///
    /// - Parameters:
    ///   - policy: The compiled catalog (StoreKit 1 does not say a product's type; the catalog does).
    ///   - paymentQueue: `SKPaymentQueue.default()` on Apple platforms; a fake in tests.
    ///   - receipt: The app receipt and its refresh request.
    ///   - products: `SKProductsRequest`, for ``products(for:)``; nil answers every id as unknown.
    ///   - documentsFolder: Where Apple-hosted content in `documents` storage is moved
    ///     once downloaded (`StoreKit/<product id>` below it); nil leaves it where
    ///     StoreKit put it (macOS manages these files itself).
    public init(policy: CompiledPolicy, paymentQueue: any StoreKit1PaymentQueue, receipt: any StoreKit1AppReceipt,
                products: (any StoreKit1ProductsRequester)? = nil, documentsFolder: URL? = nil) {
        self.policy = policy
        self.paymentQueue = paymentQueue
        self.receipt = receipt
        self.productsRequester = products
        self.documentsFolder = documentsFolder
    }

    /// The observer is removed when the backend ends, if ``stop()`` did not
    /// remove it before: StoreKit must not call an observer whose backend is gone.
    deinit {
        for observer in observers { paymentQueue.removeStoreObserver(observer) }
    }

    /// Registers a transaction observer with the payment queue (`add(_:)`)
    /// and keeps it until ``stop()`` or the backend's end, which remove it.
    func register(observer: AnyObject) {
        lock.lock()
        observers.append(observer)
        lock.unlock()
        // Outside the lock: StoreKit may call the observer from within `add(_:)`.
        paymentQueue.addStoreObserver(observer)
    }

    /// Stops StoreKit calling the backend: removes its transaction observer
    /// from the payment queue (`SKPaymentQueue.remove(_:)`). Call it when the
    /// app terminates (`applicationWillTerminate(_:)`), as Apple's "Setting up
    /// the transaction observer for the payment queue" says
    /// (https://developer.apple.com/documentation/storekit/setting-up-the-transaction-observer-for-the-payment-queue;
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/remove(_:)).
    /// The backend's deinit does the same if the app never calls it. Unfinished
    /// transactions stay with StoreKit, which delivers them again to the
    /// observer of the next launch. Calling it again does nothing.
    public func stop() {
        lock.lock()
        let removing = observers
        observers.removeAll()
        lock.unlock()
        for observer in removing { paymentQueue.removeStoreObserver(observer) }
    }

    /// Runs `body` with the backend's state, holding its lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&guarded)
    }

    // MARK: StoreBackend

    /// Delivers what StoreKit reported before the queue connected (StoreKit
    /// delivers unfinished transactions as soon as the observer is
    /// registered, at launch), then every update as it comes.
    public func connect(_ sink: StoreEventSink) async {
        withState { state in
            state.sink = sink
            if !state.early.isEmpty { sink.send(contentsOf: state.early) }
            state.early.removeAll()
        }
    }

    /// Adds an `SKMutablePayment` for the product, quantity and user name,
    /// with a promotional offer's signed terms as its `paymentDiscount`
    /// (https://developer.apple.com/documentation/storekit/skmutablepayment/paymentdiscount).
    /// StoreKit 1 applies no other offer: a payment naming one (a win-back
    /// offer, StoreKit 2 only) fails at once, `payment-invalid`, under
    /// `failed-` and a new UUID, rather than being bought at full price.
    public func add(_ payment: Payment) async {
        var discount: StoreKit1PaymentDiscount?
        if let offer = payment.offer {
            guard offer.kind == .promotional, let signature = offer.signature else {
                let info = TransactionInfo(id: "failed-" + UUID().uuidString.lowercased(), productID: payment.productID, state: .failed,
                                           error: .paymentInvalid, quantity: payment.quantity, applicationUsername: payment.applicationUsername)
                withState { $0.deliver([.updated(StoreTransaction(info))]) }
                return
            }
            discount = StoreKit1PaymentDiscount(identifier: offer.id, keyIdentifier: signature.keyID, nonce: signature.nonce,
                                                signature: signature.signature.base64EncodedString(), timestamp: signature.timestamp)
        }
        paymentQueue.addPayment(StoreKit1Payment(productID: payment.productID, quantity: payment.quantity,
                                                 applicationUsername: payment.applicationUsername, discount: discount))
    }

    /// The plan's `finish` step: `finishTransaction(_:)` on the object kept
    /// for the identifier. After a relaunch the object may not have been
    /// delivered yet (the queue replays its journal before StoreKit calls
    /// the observer): it is then looked up in the queue's `transactions`. An
    /// identifier found nowhere was finished already (or StoreKit has not
    /// loaded it yet, and then delivers it again, and the queue, finding it
    /// done in its journal, finishes it again): nothing to do.
    ///
    /// Throws a permanent failure for a transaction still `purchasing`,
    /// which StoreKit refuses to finish (it raises an exception).
    public func finish(transactionID: String) async throws(StepFailure) {
        let (removed, kept) = withState { ($0.registry.wasRemoved(transactionID), $0.registry.transaction(transactionID)) }
        if removed { return }
        // Every object StoreKit holds under the identifier: two restores of one
        // purchase that arrived before either was finished are one transaction.
        var found: [any StoreKit1Transaction] = kept.map { [$0] } ?? []
        for unfinished in paymentQueue.unfinishedTransactions
        where StoreKit1TransactionRegistry.completedID(of: unfinished) == transactionID && !found.contains(where: { $0 === unfinished }) {
            found.append(unfinished)
        }
        if found.isEmpty { return }
        if let transaction = found.first(where: { $0.purchaseState == .purchasing }) {
            throw .permanent("StoreKit cannot finish transaction \(transactionID) of \(transaction.storePayment.productID) while it is purchasing "
                             + "(finishTransaction raises an exception): finish only in the purchased, restored and failed plans")
        }
        for transaction in found { paymentQueue.finishStoreTransaction(transaction) }
        withState { state in
            state.registry.release(transactionID)
            state.downloads.finished(transactionID)
        }
    }

    /// `restoreCompletedTransactions(withApplicationUsername:)`.
    public func restoreCompletedTransactions(applicationUsername: String?) async {
        paymentQueue.restoreStoreTransactions(applicationUsername: applicationUsername)
    }

    // MARK: What the observer forwards

    /// `paymentQueue(_:updatedTransactions:)`: each transaction becomes an
    /// update for the queue, in StoreKit's order. Purchased and restored
    /// ones carry the app receipt's bytes (`TransactionInfo.receipt`) when a
    /// step of their plan may read them (`carriesReceipt(productID:state:)`); an
    /// auto-renewable subscription's end is the receipt's (see
    /// `subscriptionEnd(productID:transactionID:in:)`). A canceled purchase
    /// the receipt lists goes first, as a revocation of that one transaction,
    /// so that an update of it delivers nothing.
    public func updatedTransactions(_ transactions: [any StoreKit1Transaction]) {
        let completes = transactions.contains { $0.purchaseState == .purchased || $0.purchaseState == .restored }
        let receiptBytes = completes ? receipt.receiptBytes() : nil
        let payload = receiptBytes.flatMap { try? AppReceiptPayload(receipt: $0) }
        withState { state in
            var events = payload.map { state.receiptChanges(in: $0) } ?? []
            for transaction in transactions {
                let id = state.registry.identify(transaction)
                let productID = transaction.storePayment.productID
                var end: Date?
                var copy: [UInt8]?
                if transaction.purchaseState == .purchased || transaction.purchaseState == .restored {
                    copy = carriesReceipt(productID: productID, state: transaction.purchaseState == .purchased ? .purchased : .restored)
                        ? receiptBytes : nil
                    // Consumables are left out: a revocation by product never takes one back.
                    if policy.product(id: productID).map({ policy.product($0).type != .consumable }) ?? true {
                        let original = transaction.purchaseState == .restored ? transaction.originalStoreTransaction?.storeTransactionID : nil
                        state.noteCompleted(StoreKit1HeldTransaction(id: id, originalID: original), of: productID)
                    }
                    // The receipt lists a restore under its own identifier, not the queue's.
                    end = subscriptionEnd(productID: productID, transactionID: transaction.storeTransactionID ?? id, in: payload)
                }
                // A subscription's periods share the receipt's Original Transaction Identifier (field 1705): the
                // queue counts only the latest period that stands, as StoreKit 2's currentEntitlements does. A
                // renewal's SKPaymentTransaction has no `original`, and a restore's is the period it restores,
                // not the subscription's first, so the receipt says it: the restore's own entry, else the
                // restored period's.
                let restored = transaction.purchaseState == .restored ? transaction.originalStoreTransaction?.storeTransactionID : nil
                let subscription = end == nil ? nil : payload.flatMap { receipt in
                    receipt.originalTransactionIDs[transaction.storeTransactionID ?? id] ?? restored.flatMap { receipt.originalTransactionIDs[$0] }
                }
                events.append(.updated(Self.storeTransaction(transaction, id: id, receipt: copy, expiration: end, subscription: subscription)))
            }
            state.deliver(events)
        }
    }

    /// When a purchased or restored auto-renewable subscription ends: the
    /// app receipt's Subscription Expiration Date (field 1708) of the entry
    /// for this transaction's own identifier (field 1703; a restore's own,
    /// not its original's, since the receipt numbers each renewal and
    /// restore anew). Apple's "Receipt Fields":
    /// https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html
    /// Nil (the queue then counts the catalog's period from the purchase)
    /// for other products, or when the receipt has no such entry.
    func subscriptionEnd(productID: String, transactionID: String, in payload: AppReceiptPayload?) -> Date? {
        guard let payload, let handle = policy.product(id: productID), policy.product(handle).type == .autoRenewableSubscription else { return nil }
        return payload.entry(transactionID: transactionID)?.expirationDate
    }

    /// `paymentQueue(_:removedTransactions:)`: StoreKit finished them. The
    /// queue already said so (`removed`) when its `finish` step ran; the
    /// backend stops keeping the objects, a later `finish` of them does
    /// nothing, and a download still waiting on one fails (StoreKit drops a
    /// finished transaction's downloads). Nothing is sent to the queue: an
    /// update that comes after for the same transaction is the queue's to
    /// judge (a duplicate, or a purchase to deliver).
    public func removedTransactions(_ transactions: [any StoreKit1Transaction]) {
        withState { state in
            for transaction in transactions {
                guard let id = state.registry.remove(transaction) else { continue }
                state.downloads.finished(id)
            }
        }
    }

    /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`: every restored
    /// transaction was delivered (none, when there was nothing to restore).
    public func restoreFinished() {
        withState { $0.deliver([.restoreFinished]) }
    }

    /// `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)`.
    public func restoreFailed(_ error: StoreKit1Error) {
        withState { $0.deliver([.restoreFailed(error.storeErrorCode)]) }
    }

    /// `paymentQueue(_:shouldAddStorePayment:for:)`: a purchase the user
    /// started on the App Store. Always false, which Apple's page describes
    /// as deferring it: "Return false to defer or cancel the transaction. If
    /// you return false, you can continue the transaction later by manually
    /// adding the SKPayment payment to the SKPaymentQueue"
    /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:shouldaddstorepayment:for:)).
    /// The payment goes to the queue instead (`StoreEvent.promoted(_:)`,
    /// kept until it connects), which checks it as it checks the app's own
    /// payments, asks the app (`QueueConfiguration.promotedPurchases`), and
    /// adds it through ``add(_:)`` only then: as the StoreKit 2 backend does
    /// with a `PurchaseIntent`. (True would let StoreKit buy it at once,
    /// around the queue's checks and the app's say.)
    public func shouldAddStorePayment(_ payment: StoreKit1Payment) -> Bool {
        let promoted = PromotedPurchase(payment: Payment(productID: payment.productID, quantity: payment.quantity,
                                                         applicationUsername: payment.applicationUsername))
        withState { $0.deliver([.promoted(promoted)]) }
        return false
    }

    /// The `transactionIdentifier` a local identifier (of a purchasing or
    /// deferred transaction) became once purchased in this process: an Ask to
    /// Buy request the interface showed as waiting, now approved.
    public func approvedTransactionID(forLocalID localID: String) -> String? {
        withState { $0.registry.approvals[localID] }
    }

    // MARK: Mapping

    /// A StoreKit transaction as the queue sees it; `expiration` is when the subscription it starts or renews ends, if known;
    /// `subscription` the original transaction of the subscription a purchased or restored period belongs to, if known.
    static func storeTransaction(_ transaction: any StoreKit1Transaction, id: String, receipt: [UInt8]?, expiration: Date? = nil,
                                 subscription: String? = nil) -> StoreTransaction {
        let payment = transaction.storePayment
        let state: TransactionState
        switch transaction.purchaseState {
        case .purchasing: state = .purchasing
        case .deferred: state = .deferred
        case .purchased: state = .purchased
        case .failed: state = .failed
        case .restored: state = .restored
        }
        let completes = state == .purchased || state == .restored
        let info = TransactionInfo(id: id, productID: payment.productID, state: state,
                                   error: state == .failed ? (transaction.storeError?.storeErrorCode ?? .unknown) : nil,
                                   quantity: payment.quantity, applicationUsername: payment.applicationUsername,
                                   receipt: completes ? receipt : nil)
        let original = state == .restored ? transaction.originalStoreTransaction : nil
        // A restore's purchase date is the original's (StoreTransaction's rule);
        // a transaction still purchasing has no date yet.
        let date = original?.storeTransactionDate ?? transaction.storeTransactionDate ?? Date()
        return StoreTransaction(info, originalID: subscription ?? original?.storeTransactionID, purchaseDate: date, expirationDate: expiration)
    }
}

extension StoreKit1Backend.State {
    /// Sends events to the queue, or keeps them until it connects.
    mutating func deliver(_ events: [StoreEvent]) {
        if let sink { sink.send(contentsOf: events) } else { early.append(contentsOf: events) }
    }

    /// Notes a transaction delivered purchased or restored.
    mutating func noteCompleted(_ held: StoreKit1HeldTransaction, of productID: String) {
        if completed[productID, default: []].contains(where: { $0.id == held.id }) { return }
        completed[productID, default: []].append(held)
    }

    /// What a receipt changes of what the queue holds:
    /// - the revocations of its canceled purchases not sent yet, one per
    ///   transaction (a canceled renewal takes back that period alone), as
    ///   refunds: the receipt does not say whether the App Store refunded the
    ///   purchase or took it back from Family Sharing;
    /// - a reinstatement of each purchase it lists without a cancellation
    ///   date, as of the receipt's creation (field 12): the cancellation date
    ///   "is only present for purchases that Apple refunded or revoked"
    ///   (https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms),
    ///   so a purchase listed again without it had its refund reversed, and
    ///   Apple says to "reinstate content or services that were revoked due to
    ///   the related refund" (REFUND_REVERSED,
    ///   https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    ///   The queue acts only on a transaction it holds revoked at or before
    ///   that date (a receipt made before the refund says nothing of it), and
    ///   drops the others after one lookup. A receipt without a creation
    ///   date reinstates nothing.
    mutating func receiptChanges(in payload: AppReceiptPayload) -> [StoreEvent] {
        var events: [StoreEvent] = []
        for cancellation in payload.cancellations where reportedCancellations.insert(cancellation.transactionID).inserted {
            // With the restores of it (their own key), not of its original: a
            // canceled renewal's original (1705) is the subscription's first period.
            let ids = StoreKit1Backend.withRestores([cancellation.transactionID]) { _ in nil }
            events.append(.revoked(StoreRevocation(productID: cancellation.productID, transactionIDs: ids,
                                                   reason: .refund, date: cancellation.date)))
        }
        if let created = payload.creationDate {
            for entry in payload.entries {
                // Reported again if the App Store cancels it again.
                reportedCancellations.remove(entry.transactionID)
                let ids = StoreKit1Backend.withRestores([entry.transactionID]) { _ in nil }
                events.append(.reinstated(StoreReinstatement(productID: entry.productID, transactionIDs: ids, signedDate: created)))
            }
        }
        return events
    }
}
