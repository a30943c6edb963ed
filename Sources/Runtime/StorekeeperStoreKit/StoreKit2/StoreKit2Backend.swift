import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The queue's store over StoreKit 2 (iOS 15 and later): purchases through
/// `Product.purchase(options:)`, transactions from `Transaction.unfinished`
/// and `Transaction.updates`, restores through `AppStore.sync()` and
/// `Transaction.currentEntitlements`. docs/storekit-backends.md maps each
/// StoreKit result to the event the queue sees.
///
/// A transaction is finished with StoreKit only when the plan's `finish`
/// step runs: the backend keeps each delivered transaction by id until then
/// (and, after a relaunch, finds it in `Transaction.unfinished`).
///
/// ```swift
/// let backend = StoreKit2Backend(store: AppleStoreKit2Store(), applicationUsername: account.id)
/// let queue = try TransactionQueue(policy: policy, store: backend, configuration: configuration)
/// ```
public actor StoreKit2Backend: StoreBackend, ProductSource {
    private let store: any StoreKit2Store
    private let listensForUpdates: Bool
    private let makeLocalID: @Sendable () -> UUID
    private let signedInUser: String?
    private var sink: StoreEventSink?
    private var listeners: [Task<Void, Never>] = []
    /// Delivered and not yet finished, by the id the queue knows them by.
    private var delivered: [String: any StoreKit2Transaction] = [:]
    /// The latest `signedDate` seen of each transaction: an older version arriving later is stale.
    private var latestSigned: [UInt64: Date] = [:]
    /// Transaction ids seen in this launch, by their original transaction (for revocations).
    private var chains: [UInt64: [String]] = [:]
    /// The users whose tokens the backend knows: so that a transaction's token names its user.
    private var users: [UUID: String] = [:]
    private var pending: [StoreKit2PendingPurchase] = []

    /// A backend over a StoreKit 2 store.
    ///
    /// - Parameters:
    ///   - store: StoreKit 2 (``AppleStoreKit2Store``), or a fake in tests.
    ///   - applicationUsername: The app's name for the signed-in user, if any: transactions whose
    ///     `appAccountToken` derives from it are delivered with it as their `applicationUsername`
    ///     (so are those of every user who made a payment or a restore in this launch).
    ///   - listensForUpdates: Whether ``connect(_:)`` listens to `Transaction.updates` and
    ///     `PurchaseIntent.intents` itself. Pass `false` when the app runs its own listener (StoreKit
    ///     wants one) and hands each update to ``handle(_:)``.
    ///   - makeLocalID: The UUIDs of local identifiers (pending and failed purchases); random by default.
    public init(store: any StoreKit2Store, applicationUsername: String? = nil, listensForUpdates: Bool = true,
                makeLocalID: @escaping @Sendable () -> UUID = { UUID() }) {
        self.store = store
        self.listensForUpdates = listensForUpdates
        self.makeLocalID = makeLocalID
        signedInUser = applicationUsername
        if let applicationUsername { users[AppAccountToken.derive(fromUser: applicationUsername)] = applicationUsername }
    }

    // MARK: StoreBackend

    /// Delivers every transaction StoreKit holds unfinished, then (unless
    /// told not to) listens to `Transaction.updates` and `PurchaseIntent.intents`.
    public func connect(_ sink: StoreEventSink) async {
        self.sink = sink
        var events: [StoreEvent] = []
        for update in await store.unfinished() { events += self.events(for: update, context: .unfinished) }
        sink.send(contentsOf: events)
        guard listensForUpdates else { return }
        let updates = store.updates()
        let intents = store.purchaseIntents()
        listeners.append(Task { [weak self] in
            for await update in updates {
                guard let self else { return }
                await self.handle(update)
            }
        })
        listeners.append(Task { [weak self] in
            for await productID in intents {
                guard let self else { return }
                await self.buyPromoted(productID)
            }
        })
    }

    /// Handles one transaction from `Transaction.updates`: what the
    /// backend's own listener does for each. Call it yourself only when the
    /// backend was made with `listensForUpdates: false`.
    public func handle(_ update: StoreKit2Verification) {
        sink?.send(contentsOf: events(for: update, context: .update))
    }

    /// Buys through `Product.purchase(options:)`, with the quantity and the
    /// user's ``AppAccountToken``; the result arrives as a transaction event.
    public func add(_ payment: Payment) async {
        let token = payment.applicationUsername.map { user in
            let token = AppAccountToken.derive(fromUser: user)
            users[token] = user
            return token
        }
        let result: StoreKit2PurchaseResult
        do {
            result = try await store.purchase(productID: payment.productID, quantity: payment.quantity, appAccountToken: token)
        } catch {
            send(.updated(failed(payment, code: error.code)))
            return
        }
        switch result {
        case .success(let verification):
            sink?.send(contentsOf: events(for: verification, context: .purchase(payment)))
        case .pending:
            let purchase = StoreKit2PendingPurchase(
                id: "pending-" + makeLocalID().uuidString.lowercased(), productID: payment.productID, quantity: payment.quantity,
                applicationUsername: payment.applicationUsername, appAccountToken: token)
            pending.append(purchase)
            let info = TransactionInfo(id: purchase.id, productID: payment.productID, state: .deferred, quantity: payment.quantity,
                                       applicationUsername: payment.applicationUsername)
            send(.updated(StoreTransaction(info)))
        case .userCancelled:
            send(.updated(failed(payment, code: .paymentCancelled)))
        }
    }

    /// Calls the StoreKit transaction's `finish()`: the one delivered under
    /// this id, or after a relaunch the one `Transaction.unfinished` lists.
    /// Local ids (pending and failed purchases) have no StoreKit transaction:
    /// nothing to finish.
    public func finish(transactionID: String) async throws(StepFailure) {
        if let transaction = delivered.removeValue(forKey: transactionID) {
            await transaction.finish()
            return
        }
        guard let storeID = Self.storeID(of: transactionID) else { return }
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
            send(.restoreFailed(error.code))
            return
        }
        var events: [StoreEvent] = []
        for entitlement in await store.currentEntitlements() {
            events += self.events(for: entitlement, context: .restore(applicationUsername))
        }
        events.append(.restoreFinished)
        sink?.send(contentsOf: events)
    }

    /// StoreKit 2's record of what the user owns, in place of the app
    /// receipt: `Transaction.currentEntitlements`, verified and not revoked
    /// (what the `receipt` persistence strategy reads; StoreKit leaves
    /// consumables out).
    public func receiptEntries() async -> [ReceiptEntry] {
        await store.currentEntitlements().compactMap { entitlement in
            guard case .verified(let transaction) = entitlement, transaction.revocationDate == nil else { return nil }
            return ReceiptEntry(productID: transaction.productID, transactionID: String(transaction.id),
                                purchaseDate: transaction.purchaseDate, expirationDate: transaction.expirationDate)
        }
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

    /// The purchases StoreKit left pending in this launch, oldest first, each
    /// with the transaction that completed it once one arrived. A declined
    /// Ask to Buy request never completes: StoreKit 2 sends nothing for it.
    public func pendingPurchases() -> [StoreKit2PendingPurchase] { pending }

    // MARK: Mapping

    /// Where a transaction came from: it decides its state and its user.
    private enum Context {
        case purchase(Payment)
        case update
        case unfinished
        case restore(String?)
    }

    /// The events for one transaction StoreKit gave.
    private func events(for verification: StoreKit2Verification, context: Context) -> [StoreEvent] {
        let transaction = verification.transaction
        let id = String(transaction.id)
        // An older version of a transaction after a newer one (a purchase
        // after its refund, say) is stale: the newer one was handled.
        if let latest = latestSigned[transaction.id], transaction.signedDate < latest { return [] }
        latestSigned[transaction.id] = transaction.signedDate
        if case .unverified = verification { return [unverifiedEvent(transaction, context: context)] }
        let original = String(transaction.originalID)
        if !(chains[transaction.originalID]?.contains(id) ?? false) { chains[transaction.originalID, default: []].append(id) }
        var user = transaction.appAccountToken.flatMap { users[$0] }
        var state = TransactionState.purchased
        var originalID: String?
        switch context {
        case .purchase(let payment):
            user = payment.applicationUsername
        case .update, .unfinished:
            if transaction.revocationDate == nil { completePending(by: transaction, user: &user) }
        case .restore(let requester):
            if transaction.appAccountToken == nil { user = requester }
            state = .restored
            originalID = original
        }
        // The JWS is StoreKit 2's proof of the purchase: also the copy a `record: receipt` keeps.
        let info = TransactionInfo(id: id, productID: transaction.productID, state: state, quantity: transaction.purchasedQuantity,
                                   applicationUsername: user, receipt: Array(transaction.jwsRepresentation.utf8),
                                   signedTransaction: transaction.jwsRepresentation)
        let delivery = StoreTransaction(info, originalID: originalID, purchaseDate: transaction.purchaseDate,
                                        expirationDate: transaction.expirationDate)
        delivered[id] = transaction
        guard let revoked = transaction.revocationDate else { return [.updated(delivery)] }
        // Revoked: the revocation, then the transaction itself, which the queue
        // ignores as revoked and finishes (StoreKit holds it until then).
        var ids = [id]
        if original != id { ids.append(original) }
        ids += (chains[transaction.originalID] ?? []).filter { !ids.contains($0) }
        let reason: StoreRevocation.Reason = transaction.ownershipType == .familyShared ? .familySharing : .refund
        let revocation = StoreRevocation(productID: transaction.productID, transactionIDs: ids, reason: reason, date: revoked)
        return [.revoked(revocation), .updated(delivery)]
    }

    /// A transaction whose signature does not check out: failed with
    /// `verification-failed`, under `unverified-` and its id, so that the same
    /// transaction delivered later with a good signature is a new one to
    /// the queue; its `finish` finishes it with StoreKit.
    private func unverifiedEvent(_ transaction: any StoreKit2Transaction, context: Context) -> StoreEvent {
        let id = "unverified-\(transaction.id)"
        var user = transaction.appAccountToken.flatMap { users[$0] }
        if case .purchase(let payment) = context { user = payment.applicationUsername }
        delivered[id] = transaction
        let info = TransactionInfo(id: id, productID: transaction.productID, state: .failed, error: .verificationFailed,
                                   quantity: transaction.purchasedQuantity, applicationUsername: user,
                                   signedTransaction: transaction.jwsRepresentation)
        return .updated(StoreTransaction(info, purchaseDate: transaction.purchaseDate, expirationDate: transaction.expirationDate))
    }

    /// Matches a transaction that arrived on its own to the oldest pending
    /// purchase of its product and token (an Ask to Buy approval), and names
    /// that purchase's user.
    private func completePending(by transaction: any StoreKit2Transaction, user: inout String?) {
        let id = String(transaction.id)
        guard !pending.contains(where: { $0.completedBy == id }),
              let index = pending.firstIndex(where: {
                  $0.completedBy == nil && $0.productID == transaction.productID && $0.appAccountToken == transaction.appAccountToken
              })
        else { return }
        pending[index].completedBy = id
        if user == nil { user = pending[index].applicationUsername }
    }

    /// A purchase that ended without a transaction (cancelled, or StoreKit
    /// threw): failed, under `failed-` and a new UUID.
    private func failed(_ payment: Payment, code: StoreErrorCode) -> StoreTransaction {
        let id = "failed-" + makeLocalID().uuidString.lowercased()
        return StoreTransaction(TransactionInfo(id: id, productID: payment.productID, state: .failed, error: code,
                                                quantity: payment.quantity, applicationUsername: payment.applicationUsername))
    }

    /// A promoted purchase the user started in the App Store: bought for
    /// the signed-in user (the one the backend was made with), if any.
    private func buyPromoted(_ productID: String) async {
        await add(Payment(productID: productID, applicationUsername: signedInUser))
    }

    private func send(_ event: StoreEvent) { sink?.send(event) }

    /// The StoreKit id in a queue id, if it is one (not a local id).
    private static func storeID(of transactionID: String) -> UInt64? {
        if transactionID.hasPrefix("unverified-") { return UInt64(transactionID.dropFirst("unverified-".count)) }
        return UInt64(transactionID)
    }

    deinit {
        for listener in listeners { listener.cancel() }
    }
}
