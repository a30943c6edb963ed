public import Foundation
import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime

/// The queue's store over StoreKit 2 (iOS 15 and later): purchases through
/// `Product.purchase(options:)`, transactions from `Transaction.unfinished`
/// and `Transaction.updates`, restores through `AppStore.sync()` and
/// `Transaction.currentEntitlements`. docs/storekit-backends.md maps each
/// StoreKit result to the event the queue sees.
///
/// The backend listens to `Transaction.updates` and `PurchaseIntent.intents`
/// from the moment it is made, as Apple asks (StoreKit hands each unfinished
/// transaction to the updates listener once, right after launch), and keeps
/// what arrives until the queue connects. A purchase intent is never bought
/// here: it goes to the queue as `StoreEvent.promoted(_:)`, which checks
/// it and asks the app (`QueueConfiguration.promotedPurchases`).
///
/// A transaction is finished with StoreKit only when the plan's `finish`
/// step runs: the backend keeps each delivered transaction by id until then
/// (and, after a relaunch, finds it in `Transaction.unfinished`). A
/// transaction that fails StoreKit's verification is never finished.
///
/// ```swift
/// let backend = StoreKit2Backend(store: AppleStoreKit2Store(), applicationUsername: account.id)
/// let queue = try TransactionQueue(policy: policy, store: backend, configuration: configuration)
/// ```
public actor StoreKit2Backend: StoreBackend, ProductSource {
    /// One signed version of a transaction, as far as the backend tells versions apart.
    private struct SignedVersion: Equatable {
        var signedDate: Date
        var isRevoked: Bool
    }

    private let store: any StoreKit2Store
    private let makeLocalID: @Sendable () -> UUID
    private let signedInUser: String?
    private var sink: StoreEventSink?
    /// Events that arrived before ``connect(_:)``: sent to the queue when it connects.
    private var early: [StoreEvent] = []
    private var listeners: [Task<Void, Never>] = []
    /// Delivered and not yet finished, by the id the queue knows them by.
    private var delivered: [String: any StoreKit2Transaction] = [:]
    /// The newest verified version seen in this launch of each transaction:
    /// an older one arriving later is stale, the same one again a repeat.
    /// Unverified copies never count: their `signedDate` is unproven.
    private var newest: [UInt64: SignedVersion] = [:]
    /// The users whose tokens the backend knows: so that a transaction's token names its user.
    private var users: [UUID: String] = [:]
    /// Purchases StoreKit left pending, and the approvals that completed them.
    private var pending: StoreKit2PendingPurchases
    /// Where ``pending`` is kept across launches, if anywhere.
    private let pendingFile: StoreKit2PendingPurchaseFile?
    /// Why the pending purchases could not be saved, the last time they could
    /// not (nil once a save succeeds again). The backend goes on in memory,
    /// and saves the whole list again at the next change.
    public private(set) var pendingPurchasesSaveFailure: StoreKit2PendingPurchaseFileError?

    /// A backend over a StoreKit 2 store. Unless told not to, it starts
    /// listening to `Transaction.updates` and `PurchaseIntent.intents` here,
    /// so make it as early as the app launches.
    ///
    /// - Parameters:
    ///   - store: StoreKit 2 (`AppleStoreKit2Store`), or a fake in tests.
    ///   - applicationUsername: The app's name for the signed-in user, if any: transactions whose
    ///     `appAccountToken` derives from it are delivered with it as their `applicationUsername`
    ///     (so are those of every user who made a payment or a restore in this launch).
    ///   - listensForUpdates: Whether the backend listens to `Transaction.updates` and
    ///     `PurchaseIntent.intents` itself, from now on. Pass `false` when the app runs its own
    ///     listener (StoreKit wants one from launch) and hands each update to ``handle(_:)``.
    ///   - makeLocalID: The UUIDs of local identifiers (pending and failed purchases); random by default.
    ///
    /// Pending purchases (Ask to Buy) are kept in memory only: an approval
    /// after a relaunch is delivered, but not matched to its request. Use
    /// ``init(store:applicationUsername:pendingPurchasesFile:listensForUpdates:makeLocalID:)`` to keep them.
    public init(store: any StoreKit2Store, applicationUsername: String? = nil, listensForUpdates: Bool = true,
                makeLocalID: @escaping @Sendable () -> UUID = { UUID() }) {
        self.init(store: store, applicationUsername: applicationUsername, pending: StoreKit2PendingPurchases(), file: nil,
                  listensForUpdates: listensForUpdates, makeLocalID: makeLocalID)
    }

    /// A backend over a StoreKit 2 store that keeps the purchases StoreKit
    /// left pending (Ask to Buy) in a file of its own, so that an approval
    /// arriving after a relaunch is matched to its request and delivered to
    /// the user who asked. Otherwise as
    /// ``init(store:applicationUsername:listensForUpdates:makeLocalID:)``.
    ///
    /// - Parameters:
    ///   - store: StoreKit 2 (`AppleStoreKit2Store`), or a fake in tests.
    ///   - applicationUsername: The app's name for the signed-in user, if any, as in
    ///     ``init(store:applicationUsername:listensForUpdates:makeLocalID:)``.
    ///   - pendingPurchasesFile: The file (JSON, a few kilobytes at
    ///     most), beside the queue's journal, say; created at the first pending
    ///     purchase (and its folder, if needed).
    ///   - listensForUpdates: Whether the backend listens to `Transaction.updates` and
    ///     `PurchaseIntent.intents` itself, from now on (`false` when the app runs its own listener).
    ///   - makeLocalID: The UUIDs of local identifiers (pending and failed purchases); random by default.
    /// - Throws: ``StoreKit2PendingPurchaseFileError`` when the file is there
    ///   but cannot be read or holds something else: it is left as it is.
    public init(store: any StoreKit2Store, applicationUsername: String? = nil, pendingPurchasesFile: URL,
                listensForUpdates: Bool = true, makeLocalID: @escaping @Sendable () -> UUID = { UUID() })
        throws(StoreKit2PendingPurchaseFileError) {
        let file = StoreKit2PendingPurchaseFile(url: pendingPurchasesFile)
        let pending = try file.load()
        self.init(store: store, applicationUsername: applicationUsername, pending: pending, file: file,
                  listensForUpdates: listensForUpdates, makeLocalID: makeLocalID)
    }

    private init(store: any StoreKit2Store, applicationUsername: String?, pending: StoreKit2PendingPurchases,
                 file: StoreKit2PendingPurchaseFile?, listensForUpdates: Bool, makeLocalID: @escaping @Sendable () -> UUID) {
        self.store = store
        self.makeLocalID = makeLocalID
        self.pending = pending
        pendingFile = file
        signedInUser = applicationUsername
        // The users who asked for purchases still pending: their approvals name them.
        for request in pending.purchases {
            if let token = request.appAccountToken, let user = request.applicationUsername { users[token] = user }
        }
        if let applicationUsername { users[AppAccountToken.derive(fromUser: applicationUsername)] = applicationUsername }
        guard listensForUpdates else { return }
        // Asked for here, synchronously: StoreKit's sequences are listened to
        // from now on, and what they yield waits in their streams until the
        // loops below take it.
        let updates = store.updates()
        let intents = store.purchaseIntents()
        Task { [weak self] in await self?.listen(to: updates, intents: intents) }
    }

    // MARK: StoreBackend

    /// Delivers what arrived on `Transaction.updates` since the backend was
    /// made, then every transaction StoreKit holds unfinished that was not
    /// among it, then each update as it arrives.
    public func connect(_ sink: StoreEventSink) async {
        let unfinished = await store.unfinished()
        var graces: [Date?] = []
        for update in unfinished { graces.append(await gracePeriodEnd(of: update)) }
        // No suspension from here to the send: nothing arrives in between.
        var events = early
        early.removeAll()
        for (update, grace) in zip(unfinished, graces) { events += self.events(for: update, context: .unfinished, gracePeriodEnd: grace) }
        self.sink = sink
        sink.send(contentsOf: events)
    }

    /// Handles one transaction from `Transaction.updates`: what the
    /// backend's own listener does for each. Call it yourself only when the
    /// backend was made with `listensForUpdates: false`; before the queue
    /// connects, what it delivers waits for it.
    public func handle(_ update: StoreKit2Verification) async {
        let grace = await gracePeriodEnd(of: update)
        deliver(events(for: update, context: .update, gracePeriodEnd: grace))
    }

    /// Buys through `Product.purchase(options:)`, with the quantity, the
    /// user's `AppAccountToken` and the payment's offer (as a purchase
    /// option); the result arrives as a transaction event.
    public func add(_ payment: Payment) async {
        let token = payment.applicationUsername.map { user in
            let token = AppAccountToken.derive(fromUser: user)
            users[token] = user
            return token
        }
        let result: StoreKit2PurchaseResult
        do {
            result = try await store.purchase(productID: payment.productID, quantity: payment.quantity, appAccountToken: token,
                                              offer: payment.offer)
        } catch {
            deliver([.updated(failed(payment, code: error.code))])
            return
        }
        switch result {
        case .success(let verification):
            let grace = await gracePeriodEnd(of: verification)
            deliver(events(for: verification, context: .purchase(payment), gracePeriodEnd: grace))
        case .pending:
            let purchase = StoreKit2PendingPurchase(
                id: "pending-" + makeLocalID().uuidString.lowercased(), productID: payment.productID, quantity: payment.quantity,
                applicationUsername: payment.applicationUsername, appAccountToken: token)
            pending.add(purchase)
            savePending()
            let info = TransactionInfo(id: purchase.id, productID: payment.productID, state: .deferred, quantity: payment.quantity,
                                       applicationUsername: payment.applicationUsername)
            deliver([.updated(StoreTransaction(info))])
        case .userCancelled:
            deliver([.updated(failed(payment, code: .paymentCancelled))])
        }
    }

    /// Calls the StoreKit transaction's `finish()`: the one delivered under
    /// this id, or after a relaunch the one `Transaction.unfinished` lists.
    /// Local ids (pending and failed purchases) have no StoreKit transaction:
    /// nothing to finish. An `unverified-` id is never finished: StoreKit
    /// keeps the transaction unfinished, so that a copy that verifies later
    /// (at the next launch, say) is delivered and granted.
    public func finish(transactionID: String) async throws(StepFailure) {
        guard let storeID = UInt64(transactionID) else { return }
        if let transaction = delivered.removeValue(forKey: transactionID) {
            await transaction.finish()
            return
        }
        for update in await store.unfinished() where update.transaction.id == storeID {
            await update.transaction.finish()
        }
    }

    /// `AppStore.sync()`, then every current entitlement as a `restored`
    /// transaction (a revoked one as a revocation), then `restoreFinished`;
    /// a failed sync is `restoreFailed` with its code.
    public func restoreCompletedTransactions(applicationUsername: String?) async {
        if let applicationUsername { users[AppAccountToken.derive(fromUser: applicationUsername)] = applicationUsername }
        do {
            try await store.sync()
        } catch {
            deliver([.restoreFailed(error.code)])
            return
        }
        var events: [StoreEvent] = []
        for entitlement in await store.currentEntitlements() {
            let grace = await gracePeriodEnd(of: entitlement)
            events += self.events(for: entitlement, context: .restore(applicationUsername), gracePeriodEnd: grace)
        }
        events.append(.restoreFinished)
        deliver(events)
    }

    /// StoreKit 2's record of what the user owns, in place of the app
    /// receipt: `Transaction.currentEntitlements`, verified, neither revoked
    /// nor upgraded (what the `receipt` persistence strategy reads; StoreKit
    /// leaves consumables out). A subscription in its billing grace period
    /// lasts until the grace period ends, as Apple asks: so it stays entitled
    /// after its `expirationDate` while StoreKit retries the payment.
    public func receiptEntries() async -> [ReceiptEntry] {
        var entries: [ReceiptEntry] = []
        for entitlement in await store.currentEntitlements() {
            guard case .verified(let transaction) = entitlement, transaction.revocationDate == nil, !transaction.isUpgraded else { continue }
            let grace = await gracePeriodEnd(of: entitlement)
            entries.append(ReceiptEntry(productID: transaction.productID, transactionID: String(transaction.id),
                                        purchaseDate: transaction.purchaseDate,
                                        expirationDate: Self.end(of: transaction, gracePeriodEnd: grace)))
        }
        return entries
    }

    // MARK: ProductSource

    /// `Product.products(for:)`: the products StoreKit returns; the ids it
    /// does not (and products of a type this version does not know) are unknown.
    public func products(for ids: Set<String>) async throws(StepFailure) -> ProductLookup {
        let found: [any StoreKit2Product]
        do {
            found = try await store.products(for: ids)
        } catch {
            let reason = "Product.products(for:) failed: \(error)"
            throw error.isTransient ? .transient(reason) : .permanent(reason)
        }
        var products: [StoreProduct] = []
        for product in found where ids.contains(product.id) {
            guard let type = product.productType else { continue }
            products.append(StoreProduct(id: product.id, displayName: product.displayName, description: product.description,
                                         price: product.price, displayPrice: product.displayPrice,
                                         currencyCode: product.currencyCode, type: type))
        }
        let sold = Set(products.map(\.id))
        return ProductLookup(products: products, unknownIDs: ids.filter { !sold.contains($0) })
    }

    // MARK: Pending purchases

    /// The purchases StoreKit left pending, oldest first, each with the
    /// transaction that completed it once one arrived: those of this launch,
    /// and with a pending-purchases file those of earlier launches too (the
    /// newest ``StoreKit2PendingPurchases/kept``). A declined Ask to Buy
    /// request never completes: StoreKit 2 sends nothing for it.
    public func pendingPurchases() -> [StoreKit2PendingPurchase] { pending.purchases }

    /// Writes the pending purchases to their file, if they have one.
    private func savePending() {
        guard let pendingFile else { return }
        do {
            try pendingFile.save(pending)
            pendingPurchasesSaveFailure = nil
        } catch {
            pendingPurchasesSaveFailure = error
        }
    }

    // MARK: Mapping

    /// Where a transaction came from: it decides its state and its user.
    private enum Context {
        case purchase(Payment)
        case update
        case unfinished
        case restore(String?)
    }

    /// When the billing grace period of a verified, unrevoked auto-renewable
    /// subscription's transaction ends, if it is in one
    /// (`Transaction.subscriptionStatus`, its state `.inGracePeriod` and its
    /// renewal info's `gracePeriodExpirationDate`): asked for before a
    /// transaction is mapped, so that the mapping has no suspension point.
    private func gracePeriodEnd(of verification: StoreKit2Verification) async -> Date? {
        guard case .verified(let transaction) = verification, transaction.productType == .autoRenewableSubscription,
              transaction.revocationDate == nil, !transaction.isUpgraded, transaction.expirationDate != nil
        else { return nil }
        return await transaction.subscriptionStatus?.gracePeriodEnd
    }

    /// When what a transaction pays for ends: its `expirationDate`, or the
    /// end of the billing grace period after it, when later. "An
    /// auto-renewable subscription in this state is entitled to service"
    /// (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/ingraceperiod).
    private static func end(of transaction: any StoreKit2Transaction, gracePeriodEnd: Date?) -> Date? {
        guard let expiration = transaction.expirationDate else { return nil }
        guard let gracePeriodEnd, gracePeriodEnd > expiration else { return expiration }
        return gracePeriodEnd
    }

    /// How much of each balance a revoked transaction takes back, in
    /// thousandths of a percent, as the server reckons it: its
    /// `revocationPercentage` (a percentage, 33.333 for 1 of 3 items) when it
    /// has one, else all of it.
    static func share(of transaction: any StoreKit2Transaction) -> Int {
        guard let percentage = transaction.revocationPercentage else { return StoreRevocation.whole }
        let thousandths = (NSDecimalNumber(decimal: percentage).doubleValue * 1000).rounded()
        guard thousandths.isFinite else { return StoreRevocation.whole }
        return Int(min(max(thousandths, 0), Double(StoreRevocation.whole)))
    }

    /// Why a transaction was revoked: Family Sharing when StoreKit's
    /// `revocationType` says so (iOS 26.4), else a refund. Before iOS 26.4,
    /// a family member's copy is taken as revoked from the family unless its
    /// `revocationReason` is `developerIssue`: a shared copy carries the
    /// purchaser's refund reason, and 0 (`other`) also when the member left
    /// the family or sharing stopped, so only `developerIssue` is surely a
    /// refund (https://developer.apple.com/documentation/appstoreserverapi/revocationreason).
    private static func reason(of revoked: any StoreKit2Transaction) -> StoreRevocation.Reason {
        switch revoked.revocationType {
        case .familyRevocation?: .familySharing
        case .fullRefund?, .proratedRefund?, .other?: .refund
        case nil: revoked.ownershipType == .familyShared && revoked.revocationReason != .developerIssue ? .familySharing : .refund
        }
    }

    /// The events for one transaction StoreKit gave.
    private func events(for verification: StoreKit2Verification, context: Context, gracePeriodEnd: Date?) -> [StoreEvent] {
        guard case .verified(let transaction) = verification else {
            // Unproven: nothing of it counts, its `signedDate` included, and
            // it is never finished. Only the purchase the user is waiting
            // for hears that it failed; Apple's listener sample ignores the rest.
            guard case .purchase(let payment) = context else { return [] }
            return [unverifiedEvent(verification.transaction, payment: payment)]
        }
        let id = String(transaction.id)
        let version = SignedVersion(signedDate: transaction.signedDate, isRevoked: transaction.revocationDate != nil)
        // A transaction seen before in this launch is a later version of it
        // (a refund reversed, an upgrade): never an approval.
        let firstSeen = newest[transaction.id] == nil
        if let seen = newest[transaction.id] {
            // An older version after a newer one (a purchase after its
            // refund, say) is stale: the newer one was handled.
            if version.signedDate < seen.signedDate { return [] }
            // The same version again from a listener: StoreKit hands an
            // unfinished transaction both to `unfinished` and, once, to
            // `updates` at launch; the queue has it already.
            if version == seen, case .update = context { return [] }
            if version == seen, case .unfinished = context { return [] }
        }
        newest[transaction.id] = version
        var user = transaction.appAccountToken.flatMap { users[$0] }
        var state = TransactionState.purchased
        // A subscription's periods share its `originalID`: the queue counts
        // only the latest that stands, as `currentEntitlements` does
        // (https://developer.apple.com/documentation/storekit/transaction/currententitlements).
        var originalID: String? = transaction.expirationDate == nil ? nil : String(transaction.originalID)
        switch context {
        case .purchase(let payment):
            user = payment.applicationUsername
        case .update, .unfinished:
            if firstSeen, let request = pending.complete(by: transaction) {
                if user == nil { user = request.applicationUsername }
                savePending()
            }
        case .restore(let requester):
            if transaction.appAccountToken == nil { user = requester }
            state = .restored
            originalID = String(transaction.originalID)
        }
        // The JWS is StoreKit 2's proof of the purchase: also the copy a `record: receipt` keeps.
        let info = TransactionInfo(id: id, productID: transaction.productID, state: state, quantity: transaction.purchasedQuantity,
                                   applicationUsername: user, receipt: Array(transaction.jwsRepresentation.utf8),
                                   signedTransaction: transaction.jwsRepresentation)
        // A grace period is the subscription's status now, kept apart from the period's end: the journal
        // keeps the end, the queue holds the grace period in memory until StoreKit is read again.
        let grace: Date? = if let gracePeriodEnd, let expiration = transaction.expirationDate, gracePeriodEnd > expiration {
            gracePeriodEnd
        } else {
            nil
        }
        let delivery = StoreTransaction(info, originalID: originalID, purchaseDate: transaction.purchaseDate,
                                        expirationDate: transaction.expirationDate, gracePeriodEnd: grace)
        delivered[id] = transaction
        if let revoked = transaction.revocationDate {
            // Revoked: the revocation of this transaction alone (`revocationDate`
            // is this transaction's: a refunded subscription period takes back
            // that period, not the renewals around it), taking back its
            // `revocationPercentage` of each balance; then the transaction
            // itself, which the queue ignores as revoked and finishes (StoreKit
            // holds it until then).
            let revocation = StoreRevocation(productID: transaction.productID, transactionIDs: [id], reason: Self.reason(of: transaction),
                                             date: revoked, share: Self.share(of: transaction))
            // Refunded in part: what was not refunded was paid for and stands
            // (`revocationPercentage`: "The percentage of the transaction amount
            // that the App Store has refunded or revoked",
            // https://developer.apple.com/documentation/storekit/transaction/revocationpercentage),
            // so the purchase comes first and the revocation takes its share of
            // it. The queue ignores the purchase if it has it already, and the
            // revocation if it journalled it. A full refund first seen grants nothing.
            if revocation.share < StoreRevocation.whole { return [.updated(delivery), .revoked(revocation)] }
            return [.revoked(revocation), .updated(delivery)]
        }
        if transaction.isUpgraded {
            // Upgraded: the higher level's transaction entitles the user
            // instead, so this tier ends now; nothing was refunded, so its
            // balances stand (a share of 0).
            let upgrade = StoreRevocation(productID: transaction.productID, transactionIDs: [id], reason: .upgraded,
                                          date: transaction.signedDate, share: 0)
            return [.revoked(upgrade), .updated(delivery)]
        }
        if case .purchase = context { return [.updated(delivery)] }
        // Neither revoked nor upgraded: if the queue holds a revocation of it
        // dated before this version (a refund the App Store reversed:
        // REFUND_REVERSED signs the transaction again without its
        // `revocationDate`), what it took is given back. The queue looks the
        // id up and does nothing for the rest.
        let reinstatement = StoreReinstatement(productID: transaction.productID, transactionIDs: [id], signedDate: transaction.signedDate)
        return [.reinstated(reinstatement), .updated(delivery)]
    }

    /// A purchase whose transaction does not verify: failed with
    /// `verification-failed`, under `unverified-` and its id, which
    /// ``finish(transactionID:)`` never finishes with StoreKit. The same
    /// transaction verified later is a new one to the queue (its own id).
    private func unverifiedEvent(_ transaction: any StoreKit2Transaction, payment: Payment) -> StoreEvent {
        let info = TransactionInfo(id: "unverified-\(transaction.id)", productID: transaction.productID, state: .failed,
                                   error: .verificationFailed, quantity: transaction.purchasedQuantity,
                                   applicationUsername: payment.applicationUsername, signedTransaction: transaction.jwsRepresentation)
        return .updated(StoreTransaction(info, purchaseDate: transaction.purchaseDate, expirationDate: transaction.expirationDate))
    }

    /// A purchase that ended without a transaction (cancelled, or StoreKit
    /// threw): failed, under `failed-` and a new UUID.
    private func failed(_ payment: Payment, code: StoreErrorCode) -> StoreTransaction {
        let id = "failed-" + makeLocalID().uuidString.lowercased()
        return StoreTransaction(TransactionInfo(id: id, productID: payment.productID, state: .failed, error: code,
                                                quantity: payment.quantity, applicationUsername: payment.applicationUsername))
    }

    /// A promoted purchase the user started in the App Store
    /// (`PurchaseIntent.intents`): not bought here, but sent to the queue
    /// (or kept until it connects), which checks it as it checks the app's
    /// own payments, asks the app, and only then hands it back to ``add(_:)``.
    /// For the signed-in user (the one the backend was made with), if any,
    /// with the offer the customer redeemed (iOS 18's `intent.offer`), so
    /// that a win-back redemption is bought with its offer, never at full price.
    private func promoted(_ intent: StoreKit2PurchaseIntent) {
        let payment = Payment(productID: intent.productID, applicationUsername: signedInUser, offer: intent.offer)
        deliver([.promoted(PromotedPurchase(payment: payment))])
    }

    /// Sends events to the queue, or keeps them until it connects.
    private func deliver(_ events: [StoreEvent]) {
        guard !events.isEmpty else { return }
        if let sink { sink.send(contentsOf: events) } else { early += events }
    }

    /// The listeners of `Transaction.updates` and `PurchaseIntent.intents`,
    /// started as the backend is made.
    private func listen(to updates: AsyncStream<StoreKit2Verification>, intents: AsyncStream<StoreKit2PurchaseIntent>) {
        listeners.append(Task { [weak self] in
            for await update in updates {
                guard let self else { return }
                await self.handle(update)
            }
        })
        listeners.append(Task { [weak self] in
            for await intent in intents {
                guard let self else { return }
                await self.promoted(intent)
            }
        })
    }

    deinit {
        for listener in listeners { listener.cancel() }
    }
}
