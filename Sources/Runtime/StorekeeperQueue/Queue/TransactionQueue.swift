import Foundation
import StorekeeperCore
import StorekeeperRuntime

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
    private let store: any StoreBackend
    let configuration: QueueConfiguration
    let journal: Journal
    private let executor: PlanExecutor
    private let inbox = Inbox()
    private let planSteps: PlanSteps

    private var observers: [any TransactionObserver] = []
    var started = false
    private var loop: Task<Void, Never>?
    /// Dispatches not done, by key: mirrors the journal's open rows.
    private var open: [DispatchKey: Dispatch] = [:]
    /// What was replayed from the journal at start, to run before anything new.
    private var replay: [DispatchKey] = []
    private var sequence: Int64 = 0
    var ledger = EntitlementLedger()
    /// The balances from every source, and the spends (see ``BalanceBook``).
    var book: BalanceBook
    /// Transactions the store took back (refunds, family sharing stopped),
    /// mirroring the journal's `revocations`: an update or a step of one
    /// delivers nothing. In memory so that the hot path pays one set lookup.
    var revoked: Set<String> = []
    /// Of `revoked`, those a prorated refund took only a share of, with the
    /// share (the journal's): their grants still give what it left.
    private var partialRevocations: [String: Int] = [:]
    /// Every purchase records kept elsewhere say the user made, revoked ones
    /// included: kept so that a revocation drops its records without reading
    /// the record stores (the server's among them) again.
    private var recordsElsewhere: [(productID: String, ownership: EntitlementLedger.Ownership)] = []
    /// Subscription periods a later period superseded (the journal's answer, read when records are merged).
    private var supersededPeriods: Set<String> = []
    /// The records each store kept elsewhere gave at its last successful
    /// read, used again while it cannot be read.
    private var lastRecords: [PersistenceStrategy: [StoredRecord]] = [:]
    /// Billing grace periods the store gave with a subscription transaction it
    /// delivered, by product: its status then, not a fact of the transaction,
    /// so never journalled; replaced by the store's entitlements when they
    /// are read again (launch, restore, `refreshEntitlements()`), which show
    /// a grace period that ended early.
    private var gracePeriods: [String: EntitlementLedger.Ownership] = [:]
    /// What `recordsElsewhere` and `gracePeriods` say the user owns, by product, revoked transactions left out.
    private var elsewhere: [String: EntitlementLedger.Ownership] = [:]
    /// The entitlements last yielded to subscribers; nil until `start`
    /// loaded the journal, so that nothing is published before it is known.
    private var published: Entitlements?
    private var subscribers: [UUID: AsyncStream<Entitlements>.Continuation] = [:]
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var wakeAt: Date?
    /// New versions of transactions whose plans were still open when they
    /// arrived, with a later end (a renewal date extended while the plan
    /// waited, or a refund reversed, whose plan reopens with the version
    /// journalled before): by id, the latest end. Their end counts once the
    /// plan has owned the product (``applyLaterVersions()``).
    private var laterVersions: [String: StoreTransaction] = [:]
    private var expiryCheckAt: Date?

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
    private static func refusal(of offer: PaymentOffer, for product: ProductPolicy) -> PaymentError? {
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
    private func promote(_ purchase: PromotedPurchase) async {
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

    // MARK: Entitlements

    /// What the user may use now. Before ``start(observers:)`` has loaded
    /// the journal it knows nothing yet, and is empty.
    public func entitlements() -> Entitlements {
        ledger.entitlements(policy: policy, elsewhere: elsewhere, now: configuration.now(),
                            balances: book.balances(granted: ledger, revoked: revoked))
    }

    /// The entitlements now, then again each time they change.
    ///
    /// A stream made before ``start(observers:)`` yields nothing until start
    /// has loaded the journal; its first value is then what the journal and
    /// the records kept elsewhere say, never an empty placeholder. Each
    /// stream ends at ``stop()``.
    public func entitlementUpdates() -> AsyncStream<Entitlements> {
        // Not AsyncStream.makeStream, which needs iOS 17: the build closure runs in init.
        var made: AsyncStream<Entitlements>.Continuation?
        let stream = AsyncStream<Entitlements>(bufferingPolicy: .bufferingNewest(64)) { made = $0 }
        guard let continuation = made else { return stream }
        let id = UUID()
        subscribers[id] = continuation
        if published != nil { continuation.yield(entitlements()) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// Reads again the records kept elsewhere (another device's `icloud`
    /// records, the server's, the store's receipt) and publishes the
    /// entitlements if they changed.
    public func refreshEntitlements() async {
        await sendPendingSpends()
        await refreshElsewhere()
        publishIfChanged()
    }

    /// The grants kept, by transaction: the ledger the balances sum.
    public func grantLedger() throws(JournalError) -> [(transactionID: String, balance: String, amount: Int)] {
        try journal.grants()
    }

    /// The `app-state` records kept in the journal.
    public func appStateRecords() throws(JournalError) -> [StoredRecord] { try journal.appStateRecords() }

    /// Where each product's content was put.
    public func contentLocations() throws(JournalError) -> [String: ContentLocation] { try journal.contentLocations() }

    /// Custom effects plugins returned, by transaction.
    public func customEffects() throws(JournalError) -> [(transactionID: String, step: String, detail: String)] {
        try journal.customEffects()
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    private func refreshElsewhere() async {
        var found: [(productID: String, ownership: EntitlementLedger.Ownership)] = []
        var grants: [String: [String: Int]] = [:]
        // The server's balances before its records: a purchase recorded
        // between the two reads then counts as not yet spent, never twice.
        let serverRead = await readServerBalances()
        func note(_ productID: String, strategy: PersistenceStrategy, transactionID: String, purchaseDate: Date, expirationDate: Date?,
                  units: Int = 1) {
            guard let handle = policy.product(id: productID) else { return }
            let product = policy.product(handle)
            guard product.persistence == strategy else { return }
            if product.type == .consumable {
                // A consumable is never owned; what it granted counts once per transaction (BalanceBook).
                for grant in product.grants { grants[transactionID, default: [:]][grant.balance, default: 0] += grant.amount &* units }
                return
            }
            let end = expirationDate ?? SubscriptionTerm.expiration(of: product, bought: purchaseDate, storeExpiration: nil)
            found.append((productID, EntitlementLedger.Ownership(transactionID: transactionID, purchaseDate: purchaseDate, expirationDate: end)))
        }
        for strategy in [PersistenceStrategy.userDefaults, .icloud, .server] {
            guard let recordStore = configuration.recordStores.store(for: strategy) else { continue }
            // A store that cannot be read now (offline) still holds what it
            // held: its last records stay, so that what they evidence (a
            // product owned, grants a server balance is reckoned from) does
            // not vanish for as long as the network is down.
            let records: [StoredRecord]
            if let read = try? await recordStore.records() {
                records = read
                lastRecords[strategy] = read
            } else {
                records = lastRecords[strategy] ?? []
            }
            for record in records {
                note(record.productID, strategy: strategy, transactionID: record.transactionID,
                     purchaseDate: record.purchaseDate, expirationDate: record.expirationDate, units: record.units)
            }
        }
        book.elsewhereGrants = grants
        switch serverRead {
        case .none:
            break
        case .answered(let balances, let owed, let unlisted):
            for (balance, remaining) in balances {
                book.hear(server: remaining, owed: owed[balance] ?? 0, of: balance, granted: ledger, revoked: revoked)
            }
            for balance in unlisted {
                book.unlisted(balance, reason: "the server's answer to GET /v1/entitlements does not list the balance '\(balance)'",
                              granted: ledger, revoked: revoked)
            }
        case .failed(let reason):
            book.doubt(reason)
        }
        if let spendStore = configuration.recordStores.iCloud as? any SpendRecordStore, book.keeping.values.contains(.icloud) {
            await readSynced(spendStore)
        }

        for entry in await store.receiptEntries() {
            note(entry.productID, strategy: .receipt, transactionID: entry.transactionID,
                 purchaseDate: entry.purchaseDate, expirationDate: entry.expirationDate)
            // A billing grace period is the store's, whatever keeps the
            // record: StoreKit signs no new transaction for it, so the later
            // end the store gives a subscription transaction owned here is
            // counted, not only for `receipt` products.
            if let end = entry.expirationDate, let owned = ledger.owned[entry.productID], owned.transactionID == entry.transactionID,
               let ownedEnd = owned.expirationDate, ownedEnd < end, let handle = policy.product(id: entry.productID),
               policy.product(handle).type == .autoRenewableSubscription, policy.product(handle).persistence != .receipt {
                found.append((entry.productID, EntitlementLedger.Ownership(transactionID: entry.transactionID, purchaseDate: owned.purchaseDate,
                                                                           expirationDate: end)))
            }
        }
        recordsElsewhere = found
        // The store's entitlements just read give each grace period as it is now.
        gracePeriods.removeAll()
        mergeElsewhere()
    }

    /// What records kept elsewhere say the user owns, by product: the
    /// longest-lasting purchase of each, revoked ones left out. A revoked
    /// purchase's record is not deleted (another device, the server or the
    /// store keeps it), but it no longer counts here.
    private func mergeElsewhere() {
        // A subscription period a later one superseded (its refund reversed
        // after the user subscribed again) counts no more from a record than
        // from the journal: only the latest period is the subscription's.
        // A journal that cannot be read now keeps the last answer.
        if let superseded = try? journal.supersededPeriods() { supersededPeriods = superseded }
        var found: [String: EntitlementLedger.Ownership] = [:]
        for (productID, ownership) in recordsElsewhere + gracePeriods.map({ ($0.key, $0.value) })
        where !revoked.contains(ownership.transactionID) && !supersededPeriods.contains(ownership.transactionID) {
            found[productID] = found[productID].map { $0.merged(with: ownership) } ?? ownership
        }
        elsewhere = found
    }

    /// What reading the server's balances gave.
    private enum ServerBalancesRead {
        /// No balance is kept on the server: nothing was asked.
        case none
        /// What remains and what is owed, of the balances the answer lists;
        /// those it leaves out.
        case answered(balances: [String: Int], owed: [String: Int], unlisted: [String])
        /// The server could not be read: what failed.
        case failed(String)
    }

    /// Reads what the server says of the balances it keeps
    /// (`GET /v1/entitlements`). A failure is kept, with what failed, so
    /// that the entitlements show those balances as unconfirmed; the last
    /// word heard stays what they are reckoned from.
    private func readServerBalances() async -> ServerBalancesRead {
        let kept = book.keeping.filter { $0.value == .server }.map(\.key)
        guard !kept.isEmpty else { return .none }
        guard let transport = configuration.services.server else {
            return .failed("no server transport: the configuration's EngineServices has no server, so the balances it keeps cannot be read")
        }
        let answer: ServerEntitlements
        do {
            answer = try await ServerAccount(transport: transport).entitlements()
        } catch {
            return .failed(error.reason)
        }
        // A balance the server's answer leaves out is one it does not keep
        // (yet): unknown, not zero, so nothing is taken for spent.
        var balances: [String: Int] = [:]
        var unlisted: [String] = []
        for name in kept {
            // A balance listed only as owed holds nothing.
            if let remaining = answer.balances[name] ?? answer.owed[name].map({ _ in 0 }) {
                balances[name] = remaining
            } else {
                unlisted.append(name)
            }
        }
        return .answered(balances: balances, owed: answer.owed, unlisted: unlisted)
    }

    func publishIfChanged() {
        // Before start has loaded the journal there is nothing to compare
        // with, and what this queue knows is not yet what the user owns.
        guard let last = published else { return }
        let now = entitlements()
        scheduleExpiryCheck()
        guard now != last else { return }
        publish(now)
    }

    /// Yields `value` to every subscriber and remembers it as published.
    private func publish(_ value: Entitlements) {
        published = value
        for subscriber in subscribers.values { subscriber.yield(value) }
    }

    /// Entitlements change when a subscription ends, with nothing else
    /// happening: a timer publishes them again at the next end.
    private func scheduleExpiryCheck() {
        let now = configuration.now()
        let ends = ledger.owned.values.compactMap(\.expirationDate) + elsewhere.values.compactMap(\.expirationDate)
        guard let next = ends.filter({ $0 > now }).min(), next != expiryCheckAt else { return }
        expiryCheckAt = next
        let delay = next.timeIntervalSince(now) + 0.001
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            await self?.expiryCheckDue(next)
        }
    }

    private func expiryCheckDue(_ date: Date) {
        guard expiryCheckAt == date else { return }
        expiryCheckAt = nil
        publishIfChanged()
    }

    // MARK: The loop

    private func runLoop() async {
        while true {
            let items = await inbox.take(limit: configuration.batchLimit)
            var updates: [StoreTransaction] = []
            var stopping = false
            for item in items {
                switch item {
                case .store(.updated(let transaction)):
                    updates.append(transaction)
                case .store(.restoreFinished):
                    await processBatch(updates: updates)
                    updates.removeAll()
                    // A restore brings the receipt (and the records kept elsewhere) up to
                    // date: products whose restored plan only downloads are owned through it.
                    await refreshElsewhere()
                    publishIfChanged()
                    await tell([.restoreFinished])
                case .store(.restoreFailed(let code)):
                    await processBatch(updates: updates)
                    updates.removeAll()
                    await tell([.restoreFailed(code)])
                case .store(.revoked(let revocation)):
                    // What arrived before the revocation is handled first, so
                    // that what it delivered is there to be removed.
                    await processBatch(updates: updates)
                    updates.removeAll()
                    await revoke(revocation)
                case .store(.reinstated(let reinstatement)):
                    // Most arrive for transactions never revoked (a backend may
                    // send one with each unrevoked update): those cost a lookup
                    // and leave the batch whole.
                    guard !revoked.isEmpty, reinstatement.transactionIDs.contains(where: revoked.contains) else { continue }
                    await processBatch(updates: updates)
                    updates.removeAll()
                    await reinstate(reinstatement)
                case .store(.promoted(let purchase)):
                    await promote(purchase)
                case .wake:
                    wakeAt = nil
                    let now = Date()
                    for (key, dispatch) in open where dispatch.status == .waiting && (dispatch.retryAt ?? now) <= now {
                        open[key]?.status = .running
                        replay.append(key)
                    }
                case .stop:
                    stopping = true
                }
            }
            await processBatch(updates: updates)
            settle()
            if stopping { return }
        }
    }

    /// Journals a revocation, removing what its transactions delivered, then
    /// publishes the entitlements if they changed and tells observers (only
    /// the first time: a revocation journalled already changes nothing).
    private func revoke(_ revocation: StoreRevocation) async {
        // At once, whatever the journal says below: from now on nothing of
        // these transactions is delivered, in this launch at least.
        revoked.formUnion(revocation.transactionIDs)
        for id in revocation.transactionIDs {
            partialRevocations[id] = revocation.share < StoreRevocation.whole ? revocation.share : nil
        }
        let isNew: Bool
        do {
            isNew = try journal.revoke(revocation, ledger: &ledger)
        } catch {
            await resendLater(.revoked(revocation), journalFailed: error)
            return
        }
        mergeElsewhere()
        publishIfChanged()
        if isNew { await tell([.revoked(revocation)]) }
    }

    /// Journals a reversed refund: what the revocation took of each balance
    /// comes back at once, and the transactions' delivering steps run again
    /// (with the rest of the batch) to give back their ownership, features,
    /// records and content. A crash after the journal has it resumes those
    /// steps at the next start, as any open plan.
    private func reinstate(_ reinstatement: StoreReinstatement) async {
        let result: (transactionIDs: [String], dispatches: [Dispatch])
        do {
            result = try journal.reinstate(reinstatement, after: sequence, ledger: &ledger)
        } catch {
            await resendLater(.reinstated(reinstatement), journalFailed: error)
            return
        }
        guard !result.transactionIDs.isEmpty else { return }
        revoked.subtract(result.transactionIDs)
        for id in result.transactionIDs { partialRevocations[id] = nil }
        for dispatch in result.dispatches {
            sequence = max(sequence, dispatch.sequence)
            open[dispatch.key] = dispatch
            if !replay.contains(dispatch.key) { replay.append(dispatch.key) }
        }
        mergeElsewhere()
        publishIfChanged()
    }

    /// A store event the journal failed to commit (nothing committed) is sent
    /// again after a pause, as a batch that failed to commit runs again; the
    /// observers hear of the failure.
    private func resendLater(_ event: StoreEvent, journalFailed error: JournalError) async {
        let delay = configuration.retry.delay(afterFailures: 1)
        let inbox = inbox
        Task {
            try? await Task.sleep(for: .seconds(delay))
            inbox.send(.store(event))
        }
        await tell([.journalFailed(error)])
    }

    /// After a batch: schedule the next retry, wake those waiting for idle.
    private func settle() {
        let next = open.values.filter { $0.status == .waiting }.compactMap(\.retryAt).min()
        if let next, wakeAt.map({ next < $0 }) ?? true {
            wakeAt = next
            let delay = max(0, next.timeIntervalSince(Date()))
            let inbox = inbox
            Task {
                try? await Task.sleep(for: .seconds(delay))
                inbox.send(.wake)
            }
        }
        if inbox.settle() {
            let waiters = idleWaiters
            idleWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Classifies updates, then runs the plans of the new ones and of those
    /// due again (replays first), committing in rounds: everything up to
    /// `finish`, then the store's finish, then `finish` and what follows it.
    private func processBatch(updates: [StoreTransaction]) async {
        var work: [Dispatch] = []
        var events: [QueueEvent] = []
        for key in replay {
            if let dispatch = open[key], dispatch.status == .running { work.append(dispatch) }
        }
        replay.removeAll()
        var refinish: [StoreTransaction] = []
        var accepted: [DispatchKey: Int] = [:]
        // What the journal and the open dispatches know of this batch's
        // transactions, looked up once for the batch.
        var known: [String: [(slot: Int, rank: Int, status: DispatchStatus)]] = [:]
        if !updates.isEmpty {
            let ids = Set(updates.lazy.map(\.id))
            do {
                known = try journal.situations(of: ids)
            } catch {
                // Nothing is known, so nothing may run: the store delivers
                // these again at the next launch (they are unfinished).
                await tell([.journalFailed(error)])
                return
            }
            for (key, dispatch) in open where ids.contains(key.transactionID) {
                if !(known[key.transactionID]?.contains { $0.slot == key.slot } ?? false) {
                    known[key.transactionID, default: []].append((key.slot, dispatch.rank, dispatch.status))
                }
            }
        }
        var gracePeriodsChanged = false
        for transaction in updates {
            if let end = transaction.gracePeriodEnd, !revoked.contains(transaction.id) {
                gracePeriods[transaction.info.productID] = EntitlementLedger.Ownership(
                    transactionID: transaction.id, purchaseDate: transaction.purchaseDate, expirationDate: end)
                gracePeriodsChanged = true
            }
            switch classify(transaction, known: &known) {
            case .new(let dispatch):
                accepted[dispatch.key] = work.count
                work.append(dispatch)
                events.append(.updated(transaction))
            case .supersedes(let dispatch, let older):
                for key in older {
                    if let index = accepted[key] { work[index].status = .superseded } else if var stale = open[key] {
                        stale.status = .superseded
                        work.append(stale)
                    }
                }
                accepted[dispatch.key] = work.count
                work.append(dispatch)
                events.append(.updated(transaction))
            case .finishAgain(let reason):
                refinish.append(transaction)
                events.append(.ignored(transaction, reason))
            case .ignore(let reason):
                events.append(.ignored(transaction, reason))
                if reason == .duplicate, let end = transaction.expirationDate,
                   end > (laterVersions[transaction.id]?.expirationDate ?? .distantPast) {
                    laterVersions[transaction.id] = transaction
                }
            }
        }
        if gracePeriodsChanged {
            mergeElsewhere()
            publishIfChanged()
        }
        // A version of a subscription transaction done here whose end is later
        // (a renewal date the developer extended): the ownership follows it,
        // before the store is told to finish it; if the journal cannot keep
        // it, the store keeps it unfinished and delivers it again.
        refinish.removeAll { transaction in
            guard let error = extendOwnership(through: transaction) else { return false }
            events.append(.journalFailed(error))
            return true
        }
        // A transaction done here but delivered again by the store: its
        // finish did not reach the store; finishing again is harmless. A
        // revoked one is finished too: it has nothing left to deliver. What
        // the journal says of them is made durable first (as before any finish).
        if !refinish.isEmpty {
            do {
                try journal.makeDurable()
            } catch {
                // Not finished now: the store delivers them again.
                refinish.removeAll()
                events.append(.journalFailed(error))
            }
        }
        for transaction in refinish {
            do {
                try await store.finish(transactionID: transaction.id)
            } catch {
                // The store will deliver it again; nothing to keep.
            }
        }
        await tell(events)
        if !work.isEmpty { await run(&work) }
        await applyLaterVersions()
    }

    /// Moves the ends that later versions of open transactions carry, once
    /// their plans have owned the product; a version waits here while its
    /// plan is open (a step waiting for the network, say).
    private func applyLaterVersions() async {
        guard !laterVersions.isEmpty else { return }
        var failures: [QueueEvent] = []
        for (id, transaction) in laterVersions.sorted(by: { $0.key < $1.key }) {
            if let error = extendOwnership(through: transaction) {
                failures.append(.journalFailed(error))
                continue
            }
            if revoked.contains(id) || !open.keys.contains(where: { $0.transactionID == id }) { laterVersions[id] = nil }
        }
        if !failures.isEmpty { await tell(failures) }
    }

    /// Moves a subscription's end to the later one a new version of the
    /// transaction owning it carries; nil, or the journal's failure.
    private func extendOwnership(through transaction: StoreTransaction) -> JournalError? {
        let productID = transaction.info.productID
        guard let end = transaction.expirationDate, !revoked.contains(transaction.id), let handle = policy.product(id: productID),
              policy.product(handle).type == .autoRenewableSubscription,
              let owned = ledger.owned[productID]?.expirationDate, owned < end
        else { return nil }
        do {
            if try journal.extendOwnership(of: productID, through: transaction, until: end, ledger: &ledger) { publishIfChanged() }
            return nil
        } catch {
            return error
        }
    }

    private enum Classification {
        case new(Dispatch)
        case supersedes(Dispatch, older: [DispatchKey])
        /// Ignored, and finished with the store (which still holds it).
        case finishAgain(IgnoredUpdate)
        case ignore(IgnoredUpdate)
    }

    /// Decides what an update is, from what is known of its transaction
    /// (the journal, the open dispatches, this batch so far), and notes a
    /// new situation in `known`.
    private func classify(_ transaction: StoreTransaction,
                          known knownByTransaction: inout [String: [(slot: Int, rank: Int, status: DispatchStatus)]]) -> Classification {
        let info = transaction.info
        let slot = SituationSlot.slot(info.state, error: info.error)
        let rank = StateRank.of(info.state)
        if !revoked.isEmpty, revoked.contains(info.id) {
            // A final state is one the store holds unfinished: finishing it is
            // how the store stops delivering it. Earlier states it does not hold.
            return rank == StateRank.terminal ? .finishAgain(.revoked) : .ignore(.revoked)
        }
        let known = knownByTransaction[info.id] ?? []
        if let same = known.first(where: { $0.slot == slot }) {
            let finishes = same.status == .done && rank == StateRank.terminal
            return finishes ? .finishAgain(.duplicate) : .ignore(.duplicate)
        }
        let highest = known.map(\.rank).max() ?? -1
        if highest > rank { return .ignore(.outOfOrder) }
        if highest == StateRank.terminal { return .ignore(.conflicting) }
        sequence += 1
        let (steps, plan) = plan(for: info)
        let dispatch = Dispatch(transaction: transaction, slot: slot, sequence: sequence, steps: steps, nextStep: 0,
                                status: .running, attempts: 0, retryAt: nil, lastError: nil, plan: plan)
        let older = known.filter { $0.status != .done && $0.status != .superseded }.map { DispatchKey(transactionID: info.id, slot: $0.slot) }
        knownByTransaction[info.id, default: []].append((slot: slot, rank: rank, status: .running))
        return older.isEmpty ? .new(dispatch) : .supersedes(dispatch, older: older)
    }

    /// A transaction's plan in the policy: its step names and its position.
    private func plan(for info: TransactionInfo) -> (steps: [String], plan: Int?) {
        if let handle = policy.product(id: info.productID) {
            let plan = policy.planIndex(for: handle, state: info.state, error: info.error)
            return (planSteps.names[plan], plan)
        }
        // Not in the catalog: a failed one is still finished; a paid one
        // halts at its first step (kept unfinished, never lost) until a
        // version of the app that sells the product plans it anew.
        switch info.state {
        case .failed: return ([BuiltInStep.finish.rawValue], nil)
        case .purchased, .restored: return ([BuiltInStep.unlock.rawValue, BuiltInStep.finish.rawValue], nil)
        case .purchasing, .deferred: return ([], nil)
        }
    }

    /// Plans a journalled dispatch that has no step done with the policy of now.
    private func replan(_ dispatch: inout Dispatch) {
        let (steps, plan) = plan(for: dispatch.transaction.info)
        dispatch.steps = steps
        dispatch.plan = plan
    }

    /// Runs dispatches in rounds until none can go further now.
    private func run(_ work: inout [Dispatch]) async {
        var round = Array(work.indices)
        var finishCalled = Set<Int>()
        while !round.isEmpty {
            var batch = JournalBatch()
            var events: [QueueEvent] = []
            var atFinish: [Int] = []
            let before = work
            for index in round {
                var output = StepOutput(tellsObservers: true)
                let handle = policy.product(id: work[index].transaction.info.productID)
                if work[index].status == .running {
                    let stop = await executor.run(&work[index], product: handle, finishCalled: finishCalled.contains(index), into: &output)
                    if stop == .atFinish { atFinish.append(index) }
                }
                events.append(contentsOf: output.events)
                let position = batch.dispatches.count
                batch.dispatches.append(work[index])
                if let handle {
                    let product = policy.product(handle)
                    // A revoked transaction's deliveries are dropped here, at
                    // the commit, rather than revoked again after it: every
                    // path (a new update, a retry, a replay after a crash)
                    // goes through this point, and no commit ever holds them.
                    // Its plan runs on to `finish`, so the store stops
                    // delivering it.
                    // A prorated refund leaves the rest of a consumable's grants
                    // paid for: they are kept, less its share (the journal takes it).
                    let id = work[index].transaction.id
                    let delivers = revoked.isEmpty || !revoked.contains(id)
                    let share = delivers || partialRevocations.isEmpty ? nil : partialRevocations[id]
                    for effect in output.effects where delivers || !Self.isDelivery(effect) || (share != nil && Self.isGrant(effect)) {
                        batch.effects.append((dispatch: position, effect: effect, product: product))
                    }
                    if let share { batch.partialRevocations[id] = share }
                }
            }
            // Observers hear of a step before it counts as done: at least once.
            await tell(events)
            configuration.faultInjection?(.beforeCommit)
            do {
                // Durable before the store hears of any finish, in every mode:
                // a finished transaction is never delivered again, so a
                // power loss must not take back what its steps delivered.
                if try journal.commit(batch, durable: !atFinish.isEmpty, ledger: &ledger) { publishIfChanged() }
            } catch {
                // Nothing of the batch committed: put the dispatches back as
                // they were, to run again after a pause.
                let retryAt = Date().addingTimeInterval(configuration.retry.delay(afterFailures: 1))
                for index in round {
                    var restored = before[index]
                    if restored.status == .running || restored.status == .done {
                        restored.status = .waiting
                        restored.retryAt = retryAt
                    }
                    open[restored.key] = restored
                }
                await tell([.journalFailed(error)])
                return
            }
            configuration.faultInjection?(.afterCommit)
            for index in round {
                work[index].isJournalled = true
                let dispatch = work[index]
                if dispatch.status == .done || dispatch.status == .superseded {
                    open[dispatch.key] = nil
                } else {
                    open[dispatch.key] = dispatch
                }
            }
            // Finish with the store what is committed up to its `finish`.
            var next: [Int] = []
            var removed: [QueueEvent] = []
            finishCalled.removeAll()
            for index in atFinish {
                let info = work[index].transaction.info
                do {
                    configuration.faultInjection?(.beforeFinish)
                    try await store.finish(transactionID: info.id)
                    configuration.faultInjection?(.afterFinish)
                    finishCalled.insert(index)
                    removed.append(.removed(info))
                } catch {
                    var output = StepOutput(tellsObservers: true)
                    _ = executor.fail(&work[index], step: BuiltInStep.finish.rawValue, error, into: &output)
                    removed.append(contentsOf: output.events)
                }
                next.append(index)
            }
            await tell(removed)
            round = next
        }
    }

    /// Whether an effect delivers something a revocation takes back (custom
    /// effects are a plugin's own account of what it did, and stay).
    private static func isDelivery(_ effect: Effect) -> Bool {
        switch effect {
        case .own, .unlock, .grant, .record, .content: true
        case .receiptVerified, .notify, .presentError, .finish, .custom: false
        }
    }

    private static func isGrant(_ effect: Effect) -> Bool {
        if case .grant = effect { true } else { false }
    }

    private func tell(_ events: [QueueEvent]) async {
        guard !events.isEmpty else { return }
        for observer in observers {
            for event in events { await observer.queue(event) }
        }
    }
}

/// A transaction not done, as ``TransactionQueue/pending()`` reports it.
public struct PendingTransaction: Sendable, Hashable {
    /// The transaction.
    public let transaction: StoreTransaction
    /// Running, waiting for a retry, or halted.
    public let status: DispatchStatus
    /// The step it is at.
    public let step: String?
    /// Failed attempts of that step.
    public let attempts: Int
    /// When it runs again, if waiting.
    public let retryAt: Date?
    /// Why its step failed last.
    public let lastError: String?
}
