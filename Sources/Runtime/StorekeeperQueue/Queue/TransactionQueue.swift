import Foundation
import StorekeeperCore
public import StorekeeperRuntime

/// The transaction queue, modelled on StoreKit's payment queue: the app adds
/// payments, the store reports transactions, and each update runs its
/// compiled plan (product × state), durably and exactly once.
///
/// ```swift
/// let queue = try TransactionQueue(policy: policy, store: store,
///                                  configuration: QueueConfiguration(journalPath: journalURL.path))
/// try await queue.start(observers: [storeUI])      // replays what a crash left, then connects the store
/// try await queue.add(Payment(productID: "com.example.rocketracer.coins.100"))
/// let now = await queue.entitlements()
/// now.balance("coins")
/// ```
///
/// Guarantees (each proven by a test, the crash test kills the process at random):
/// - a step's effects and the journal entry that marks it done commit in one
///   database transaction; a crash resumes at the first step not done;
/// - an update the store reports twice (or again after a restart) runs no step twice;
/// - `finish` is called only after every earlier step succeeded and committed;
///   a step that fails for a passing reason is retried with backoff; a
///   `failed` transaction is always finished;
/// - what the journal left unfinished runs at start, before anything new.
public actor TransactionQueue {
    /// The compiled catalog the queue dispatches to.
    public nonisolated let policy: CompiledPolicy
    let store: any StoreBackend
    let configuration: QueueConfiguration
    let journal: Journal
    let executor: PlanExecutor
    let inbox = Inbox()
    let planSteps: PlanSteps

    var observers: [any TransactionObserver] = []
    var started = false
    var loop: Task<Void, Never>?
    /// Dispatches not done, by key: mirrors the journal's open rows.
    var open: [DispatchKey: Dispatch] = [:]
    /// What was replayed from the journal at start, to run before anything new.
    var replay: [DispatchKey] = []
    var sequence: Int64 = 0
    var ledger = EntitlementLedger()
    /// The balances from every source, and the spends (see ``BalanceBook``).
    var book: BalanceBook
    /// Transactions the store took back (refunds, family sharing stopped),
    /// mirroring the journal's `revocations`: an update or a step of one
    /// delivers nothing. In memory so that the hot path pays one set lookup.
    var revoked: Set<String> = []
    /// Of `revoked`, those a prorated refund took only a share of, with the
    /// share (the journal's): their grants still give what it left.
    var partialRevocations: [String: Int] = [:]
    /// Every purchase records kept elsewhere say the user made, revoked ones
    /// included: kept so that a revocation drops its records without reading
    /// the record stores (the server's among them) again.
    var recordsElsewhere: [(productID: String, ownership: EntitlementLedger.Ownership)] = []
    /// Subscription periods a later period superseded (the journal's answer, read when records are merged).
    var supersededPeriods: Set<String> = []
    /// The records each store kept elsewhere gave at its last successful
    /// read, used again while it cannot be read.
    var lastRecords: [PersistenceStrategy: [StoredRecord]] = [:]
    /// Billing grace periods the store gave with a subscription transaction it
    /// delivered, by product: its status then, not a fact of the transaction,
    /// so never journalled; replaced by the store's entitlements when they
    /// are read again (launch, restore, `refreshEntitlements()`), which show
    /// a grace period that ended early.
    var gracePeriods: [String: EntitlementLedger.Ownership] = [:]
    /// What `recordsElsewhere` and `gracePeriods` say the user owns, by product, revoked transactions left out.
    var elsewhere: [String: EntitlementLedger.Ownership] = [:]
    /// The entitlements last yielded to subscribers; nil until `start`
    /// loaded the journal, so that nothing is published before it is known.
    var published: Entitlements?
    var subscribers: [UUID: AsyncStream<Entitlements>.Continuation] = [:]
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var wakeAt: Date?
    /// New versions of transactions whose plans were still open when they
    /// arrived, with a later end (a renewal date extended while the plan
    /// waited, or a refund reversed, whose plan reopens with the version
    /// journalled before): by id, the latest end. Their end counts once the
    /// plan has owned the product (``applyLaterVersions()``).
    var laterVersions: [String: StoreTransaction] = [:]
    var expiryCheckAt: Date?

    /// Opens the journal (creating it if nothing is at its path) and takes
    /// its lock until ``stop()`` or the queue's end: a journal another queue
    /// has open is ``JournalError/Kind/inUse``. Nothing runs until ``start(observers:)``.
    public init(policy: CompiledPolicy, store: any StoreBackend, configuration: QueueConfiguration) throws(JournalError) {
        self.policy = policy
        self.store = store
        self.configuration = configuration
        journal = try Journal(path: configuration.journalPath, durability: configuration.durability)
        planSteps = PlanSteps(policy)
        book = BalanceBook(keeping: BalanceKeeping.of(policy))
        executor = PlanExecutor(policy: policy, planSteps: planSteps, services: configuration.services,
                                recordStores: configuration.recordStores, retry: configuration.retry, stepProbe: configuration.stepProbe)
    }

    // MARK: Lifecycle

    /// Registers the observers, replays every transaction the journal left
    /// unfinished (a halted one is tried again), then connects the store,
    /// which delivers what it holds unfinished and everything after.
    public func start(observers: [any TransactionObserver] = []) async throws(JournalError) {
        guard !started else { return }
        started = true
        self.observers = observers
        ledger = try journal.ledger()
        book.setLocal(try journal.spends())
        revoked = try journal.revokedTransactionIDs()
        partialRevocations = try journal.partialRevocationShares()
        sequence = try journal.lastSequence()
        for var dispatch in try journal.openDispatches() {
            if dispatch.status == .halted || dispatch.status == .waiting {
                dispatch.status = .running
                dispatch.retryAt = nil
            }
            // No step done yet: the plan of the catalog the app has now applies
            // (a product an older version did not sell gets its real plan).
            if dispatch.nextStep == 0 { replan(&dispatch) }
            open[dispatch.key] = dispatch
            replay.append(dispatch.key)
        }
        await refreshElsewhere()
        // The first value every subscriber gets, those that subscribed
        // before this start included: what the journal and the records kept
        // elsewhere say the user owns.
        publish(entitlements())
        scheduleExpiryCheck()
        // A spend a crash (or the network) left unanswered is sent again, with its key.
        await sendPendingSpends()
        // What the journal left runs to its end (or its next wait) before the
        // store can deliver anything new.
        await processBatch(updates: [])
        settle()
        loop = Task { await self.runLoop() }
        await store.connect(StoreEventSink(inbox: inbox))
    }

    /// Stops taking work once what was sent before is handled, then closes
    /// the journal and releases its lock, so that a new queue may open it.
    /// A stopped queue does not start again: make a new one (as a new
    /// launch would). What it holds in memory (`entitlements()`,
    /// `pending()`) can still be read; the journal's tables cannot.
    public func stop() async {
        inbox.send(.stop)
        await loop?.value
        loop = nil
        journal.close()
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers.removeAll()
    }

    /// Closes the journal and releases its lock at once, as the end of the
    /// process does, so that a simulated app that "crashed" (its tasks
    /// suspended for good, the queue still referenced) can be launched
    /// again on the same journal. Nothing is committed after this.
    package nonisolated func closeJournalAsACrashWould() {
        journal.close()
    }

    /// Returns once everything sent so far has been handled (steps waiting
    /// to be retried later excepted).
    public func whenIdle() async {
        if loop == nil || inbox.isIdle { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    // MARK: What the app asks

    /// Sends a payment to the store, after checking the product and quantity.
    public func add(_ payment: Payment) async throws(PaymentError) {
        guard started else { throw .notStarted }
        if let refusal = Self.refusal(of: payment, in: policy) { throw refusal }
        await store.add(payment)
    }

    /// Why the store must not be asked to process a payment, if it must not:
    /// the checks every payment passes, the app's and promoted purchases alike.
    static func refusal(of payment: Payment, in policy: CompiledPolicy) -> PaymentError? {
        guard let handle = policy.product(id: payment.productID) else {
            return .unknownProduct(payment.productID, suggestion: Suggestion.nearest(to: payment.productID, in: policy.products.lazy.map(\.id)))
        }
        let product = policy.product(handle)
        guard payment.quantity >= 1, payment.quantity <= product.maxQuantity else {
            return .quantityOutOfRange(product: payment.productID, quantity: payment.quantity, maximum: product.maxQuantity)
        }
        if let offer = payment.offer { return refusal(of: offer, for: product) }
        return nil
    }

    /// Why a payment may not redeem an offer: the catalog must declare it
    /// for the product, by kind and identifier; an offer code is never
    /// bought; a promotional offer carries its signature.
    static func refusal(of offer: PaymentOffer, for product: ProductPolicy) -> PaymentError? {
        guard product.offers.contains(OfferPolicy(kind: offer.kind, id: offer.id)) else {
            return .undeclaredOffer(product: product.id, kind: offer.kind, id: offer.id, declared: product.offers.map(\.id))
        }
        switch offer.kind {
        case .offerCode: return .offerCodeNotPurchasable(product: product.id, id: offer.id)
        case .promotional: return offer.signature == nil ? .unsignedOffer(product: product.id, id: offer.id) : nil
        case .winBack: return nil
        }
    }

    /// A purchase the user started outside the app: refused (and the
    /// observers told why) when its payment fails the checks of ``add(_:)``;
    /// else the app decides, and the payment goes to the store only for
    /// ``PromotedPurchaseDecision/buyNow``. The decision and the purchase
    /// (a payment sheet the user may leave open) run on a task of their own,
    /// so that the loop goes on; the queue is not idle until both are done.
    func promote(_ purchase: PromotedPurchase) async {
        if let refusal = Self.refusal(of: purchase.payment, in: policy) {
            await tell([.promotedPurchaseRefused(purchase, refusal)])
            return
        }
        let (inbox, store, decide) = (inbox, store, configuration.promotedPurchases)
        inbox.beginOutsideWork()
        Task {
            if await decide(purchase) == .buyNow { await store.add(purchase.payment) }
            inbox.endOutsideWork()
        }
    }

    /// Asks the store to restore completed transactions; they arrive as
    /// `restored` updates, then `restoreFinished` (or `restoreFailed`).
    public func restoreCompletedTransactions(applicationUsername: String? = nil) async {
        await store.restoreCompletedTransactions(applicationUsername: applicationUsername)
    }

    /// Runs every waiting or halted step now (the network is back, say).
    public func retryNow() {
        for (key, dispatch) in open where dispatch.status == .waiting || dispatch.status == .halted {
            open[key]?.status = .running
            open[key]?.retryAt = nil
            replay.append(key)
        }
        inbox.send(.wake)
    }

    /// Transactions not done: each with the step it waits at and why.
    public func pending() -> [PendingTransaction] {
        open.values.sorted { $0.sequence < $1.sequence }.map { dispatch in
            PendingTransaction(transaction: dispatch.transaction, status: dispatch.status,
                               step: dispatch.nextStep < dispatch.steps.count ? dispatch.steps[dispatch.nextStep] : nil,
                               attempts: dispatch.attempts, retryAt: dispatch.retryAt, lastError: dispatch.lastError)
        }
    }
}
