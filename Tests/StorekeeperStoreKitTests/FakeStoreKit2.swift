import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperStoreKit

/// A transaction as StoreKit 2 would give it; `finish()` tells its store.
struct FakeTransaction: StoreKit2Transaction {
    var id: UInt64
    var originalID: UInt64
    var productID: String
    var productType: ProductType?
    var purchaseDate: Date
    var signedDate: Date
    var expirationDate: Date?
    var revocationDate: Date?
    var revocationReason: StoreKit2RevocationReason?
    var revocationPercentage: Decimal?
    var revocationType: StoreKit2RevocationType?
    var isUpgraded = false
    /// What `Transaction.subscriptionStatus` answers: nil unless a test sets it.
    var subscriptionStatus: StoreKit2SubscriptionStatus?
    var purchasedQuantity: Int
    var appAccountToken: UUID?
    var ownershipType: StoreKit2OwnershipType
    var jwsRepresentation: String { "header.\(id)-\(signedDate.timeIntervalSince1970).signature" }
    let store: FakeStoreKit2

    func finish() async { await store.didFinish(id) }

    /// The same transaction signed again later (a refund, say).
    func signedAgain(after seconds: TimeInterval, _ change: (inout FakeTransaction) -> Void = { _ in }) -> FakeTransaction {
        var copy = self
        copy.signedDate = signedDate.addingTimeInterval(seconds)
        change(&copy)
        return copy
    }
}

/// A product as `Product.products(for:)` would give it.
struct FakeProduct: StoreKit2Product {
    var id: String
    var displayName: String
    var description: String
    var price: Decimal
    var displayPrice: String
    var currencyCode: String
    var productType: ProductType?
}

/// StoreKit 2 in memory: the App Store's side (what is unfinished, what the
/// user is entitled to) outlives the backends made over it, as it outlives
/// an app's launches. Every call is recorded.
///
/// As StoreKit does: a transaction stays in `unfinished` until it is
/// finished (https://developer.apple.com/documentation/storekit/transaction/unfinished:
/// "A transaction is unfinished until you call finish()"), whether it
/// verified or not; and each new `updates` sequence (one per launch) first
/// yields, once, every transaction unfinished when it was asked for
/// (https://developer.apple.com/documentation/storekit/transaction/updates:
/// "If your app has unfinished transactions, the updates listener receives
/// them once, immediately after the app launches").
actor FakeStoreKit2: StoreKit2Store {
    /// What the next purchase call answers.
    enum Answer {
        case result(StoreKit2PurchaseResult)
        case failure(StoreKit2Failure)
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private(set) var purchases: [(productID: String, quantity: Int, token: UUID?, offer: PaymentOffer?)] = []
    /// The ids `finish()` was called for, in order.
    private(set) var finished: [UInt64] = []
    private(set) var syncs = 0
    /// What is unfinished, in the order StoreKit got it: behind a lock, since
    /// `updates()` (nonisolated, as it is called from a backend's init) reads it.
    private nonisolated let held = Locked((byID: [UInt64: StoreKit2Verification](), order: [UInt64]()))
    var entitlements: [StoreKit2Verification] = []
    var products: [FakeProduct] = []
    var productsFailure: StoreKit2Failure?
    var syncFailure: StoreKit2Failure?
    private var answers: [Answer] = []
    private var nextID: UInt64 = 1000

    /// `Transaction.updates` and `PurchaseIntent.intents` of the latest launch (a new pair
    /// each time a backend listens), and how many times `updates` was asked for:
    /// each send returns once the backend has handled it.
    private nonisolated let streams = Locked((updates: HandshakeStream<StoreKit2Verification>(), intents: HandshakeStream<StoreKit2PurchaseIntent>(),
                                              updatesAsked: 0))

    // MARK: Setting up

    /// A new transaction of a product, with the next id.
    func transaction(_ productID: String, type: ProductType, quantity: Int = 1, token: UUID? = nil, originalID: UInt64? = nil,
                     expires: Date? = nil, ownership: StoreKit2OwnershipType = .purchased) -> FakeTransaction {
        nextID += 1
        return FakeTransaction(id: nextID, originalID: originalID ?? nextID, productID: productID, productType: type,
                               purchaseDate: Self.start.addingTimeInterval(Double(nextID)), signedDate: Self.start.addingTimeInterval(Double(nextID)),
                               expirationDate: expires, revocationDate: nil, revocationReason: nil, revocationPercentage: nil,
                               revocationType: nil, subscriptionStatus: nil, purchasedQuantity: quantity,
                               appAccountToken: token, ownershipType: ownership, store: self)
    }

    /// What the next purchase answers (else a verified purchase of what was asked).
    func willAnswer(_ answer: Answer) { answers.append(answer) }

    /// Sets what the user is entitled to (`Transaction.currentEntitlements`).
    func setEntitlements(_ entitlements: [StoreKit2Verification]) { self.entitlements = entitlements }
    func setProducts(_ products: [FakeProduct], failure: StoreKit2Failure? = nil) {
        self.products = products
        productsFailure = failure
    }
    func setSyncFailure(_ failure: StoreKit2Failure?) { syncFailure = failure }

    /// Holds a transaction unfinished, as StoreKit does with every one it gives until the app finishes it
    /// (a later copy of the same transaction, verified where the earlier was not, say, takes its place).
    func holdUnfinished(_ verification: StoreKit2Verification) {
        let id = verification.transaction.id
        held.withLock { held in
            if held.byID[id] == nil { held.order.append(id) }
            held.byID[id] = verification
        }
    }

    /// Sends an update on `Transaction.updates` and returns once the backend has handled it.
    func emit(_ verification: StoreKit2Verification) async {
        holdUnfinished(verification)
        await streams.withLock { $0.updates }.send(verification)
    }

    /// The user starts buying a product in the App Store (a promoted purchase);
    /// returns once the backend has handled it.
    func promote(_ productID: String, offer: PaymentOffer? = nil) async {
        await streams.withLock { $0.intents }.send(StoreKit2PurchaseIntent(productID: productID, offer: offer))
    }

    /// Ends `Transaction.updates` and `PurchaseIntent.intents` (the test is over).
    func endUpdates() async {
        let (updates, intents) = streams.withLock { ($0.updates, $0.intents) }
        await updates.end()
        await intents.end()
    }

    /// Returns once the backend has handled what the latest `updates` sequence
    /// replayed at launch (and everything emitted since).
    func launchReplayHandled() async {
        await streams.withLock { $0.updates }.drained()
    }

    /// How many times `Transaction.updates` was asked for: once per backend that listens.
    nonisolated var updatesAsked: Int { streams.withLock { $0.updatesAsked } }

    func didFinish(_ id: UInt64) {
        finished.append(id)
        held.withLock { held in
            held.byID[id] = nil
            held.order.removeAll { $0 == id }
        }
    }

    var unfinishedIDs: [UInt64] { held.withLock { $0.order } }

    // MARK: StoreKit2Store

    func purchase(productID: String, quantity: Int, appAccountToken: UUID?, offer: PaymentOffer?) async throws(StoreKit2Failure)
        -> StoreKit2PurchaseResult {
        purchases.append((productID, quantity, appAccountToken, offer))
        let answer = answers.isEmpty ? nil : answers.removeFirst()
        switch answer {
        case .failure(let failure): throw failure
        case .result(let result):
            if case .success(let verification) = result { holdUnfinished(verification) }
            return result
        case nil:
            let bought = transaction(productID, type: .consumable, quantity: quantity, token: appAccountToken)
            holdUnfinished(.verified(bought))
            return .success(.verified(bought))
        }
    }

    nonisolated func updates() -> AsyncStream<StoreKit2Verification> {
        let fresh = HandshakeStream<StoreKit2Verification>(backlog: unfinishedNow())
        streams.withLock {
            $0.updates = fresh
            $0.updatesAsked += 1
        }
        return fresh.stream()
    }

    func unfinished() async -> [StoreKit2Verification] { unfinishedNow() }

    private nonisolated func unfinishedNow() -> [StoreKit2Verification] {
        held.withLock { held in held.order.compactMap { held.byID[$0] } }
    }

    func currentEntitlements() async -> [StoreKit2Verification] { entitlements }

    func sync() async throws(StoreKit2Failure) {
        syncs += 1
        if let syncFailure { throw syncFailure }
    }

    func products(for ids: Set<String>) async throws(StoreKit2Failure) -> [any StoreKit2Product] {
        if let productsFailure { throw productsFailure }
        return products.filter { ids.contains($0.id) }
    }

    nonisolated func purchaseIntents() -> AsyncStream<StoreKit2PurchaseIntent> {
        let fresh = HandshakeStream<StoreKit2PurchaseIntent>()
        streams.withLock { $0.intents = fresh }
        return fresh.stream()
    }
}
