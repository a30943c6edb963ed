public import Foundation
import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime
public import StorekeeperStoreKit
public import StorekeeperStoreModel
public import StorekeeperTestChain

/// StoreKit 2 on one Apple ID's device, driven by the App Store model: every transaction it holds is one the
/// model sent that device (`DeviceTransaction`, signed by the test chain), every subscription status is the
/// model's. It outlives the app's launches as StoreKit outlives an app's: the backend and the queue are made
/// again over it at each launch (``launch()``, ``quit()``), and it keeps what the device holds in between.
///
/// StoreKit's rules, each from Apple's page:
/// - `Transaction.updates` emits transactions "that occur outside the app or on other devices", and "If your
///   app has unfinished transactions, the updates listener receives them once, immediately after the app
///   launches" (https://developer.apple.com/documentation/storekit/transaction/updates): each launch's stream
///   starts with every unfinished transaction, once.
/// - `Transaction.unfinished`: the transactions the app has not finished
///   (https://developer.apple.com/documentation/storekit/transaction/unfinished), until `finish()`
///   (https://developer.apple.com/documentation/storekit/transaction/finish()). A later version of a finished
///   transaction (its refund) does not make it unfinished again.
/// - `Transaction.currentEntitlements`: "A transaction for each non-consumable in-app purchase", "The latest
///   transaction for each auto-renewable subscription that has a Product.SubscriptionInfo.RenewalState state
///   of subscribed or inGracePeriod", "The latest transaction for each non-renewing subscription, including
///   finished ones"; refunded or revoked products and consumables do not appear
///   (https://developer.apple.com/documentation/storekit/transaction/currententitlements).
/// - `Transaction.subscriptionStatus` and `RenewalInfo.gracePeriodExpirationDate` are the model's state of
///   the subscription (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct).
/// - `Product.purchase(options:)` answers with the transaction the model made for the purchase
///   (https://developer.apple.com/documentation/storekit/product/purchase(options:)): a driver arranges it
///   first (``expectPurchase(_:unverified:)``).
///
/// Where Apple says nothing, the fake's choice (docs/device-lives.md): what arrives while the app is not
/// running waits, and the next launch's `updates` emits it after the unfinished ones.
///
/// The faults a driver draws (each with the life's seeded generator) are calls here: the same message
/// twice (``receive(_:unverified:)`` again), messages in another order, a transaction first unverified then
/// verified (``receive(_:unverified:)`` with `true`, then ``verifyHeld()`` or a launch), the same transaction
/// again after it was finished (``redeliver(transactionID:)``), a relaunch at any point.
public actor ModelStoreKit2Device: StoreKit2Store {
    /// What the fake counted, for the driver's figures.
    public struct Counters: Sendable, Hashable {
        /// Launches (``launch()`` calls).
        public var launches = 0
        /// Updates emitted on `Transaction.updates` (launch replays included).
        public var updatesEmitted = 0
        /// Of those, emitted as `.unverified`.
        public var unverifiedEmitted = 0
        /// Purchases answered.
        public var purchases = 0
        /// `finish()` calls of an unfinished transaction.
        public var finishes = 0
        /// `finish()` calls of a transaction finished already (a redelivery's, a revocation's).
        public var finishesAgain = 0
    }

    /// A question a driver answers when the app finishes a transaction: nil when the finish is right now,
    /// else what is wrong (a plan not yet committed in the journal, say).
    public typealias FinishWitness = @Sendable (TransactionPayload) async -> String?

    /// The Apple ID signed in to the App Store on this device.
    public nonisolated let appleID: String
    private let products: [ProductPolicy]
    /// The newest version (largest `signedDate`) of each transaction the device holds, with its JWS.
    private var held: [UInt64: (payload: TransactionPayload, signed: String)] = [:]
    /// Ids in the order the device first got them.
    private var order: [UInt64] = []
    private var finished: Set<UInt64> = []
    /// Transactions StoreKit cannot verify now: given as `.unverified` until ``verifyHeld()`` or the next launch.
    private var unverified: Set<UInt64> = []
    /// Versions that arrived while the app was not running, for the next launch's `updates`.
    private var arrivedWhileQuit: [UInt64] = []
    /// Purchases the model made, each waiting for the app's `purchase` of its product.
    private var expected: [(transaction: DeviceTransaction, unverified: Bool)] = []
    private var model: StoreModel?
    private var witness: FinishWitness?
    private let launchBox = LaunchBox()
    /// What is wrong with how the app used StoreKit (a finish of a transaction never given, a purchase
    /// nobody made, a finish the witness refused), in order.
    public private(set) var violations: [String] = []
    /// What the fake counted so far.
    public private(set) var counters = Counters()

    /// The StoreKit of `appleID`'s device, selling `products` (`Product.products(for:)`). The app is not
    /// running: call ``launch()`` before making a backend over it.
    public init(appleID: String, products: [ProductPolicy]) {
        self.appleID = appleID
        self.products = products
    }

    // MARK: The driver's side

    /// The app launches: a new `Transaction.updates` that first emits every unfinished transaction once
    /// (Apple's launch replay), then each transaction StoreKit gave unverified (tried again, verified now),
    /// then what arrived while the app was not running. Make the backend after this call.
    public func launch() async {
        await launchBox.channel?.end()
        var backlog = order.filter { !finished.contains($0) }
        var seen = Set(backlog)
        // What StoreKit gave unverified (a finished transaction's later version, say) is given again, verified.
        for id in order where unverified.contains(id) && seen.insert(id).inserted { backlog.append(id) }
        unverified.removeAll()
        for id in arrivedWhileQuit where seen.insert(id).inserted { backlog.append(id) }
        arrivedWhileQuit.removeAll()
        let replay = backlog.compactMap(verification(of:))
        counters.launches += 1
        counters.updatesEmitted += replay.count
        launchBox.channel = UpdateChannel(backlog: replay)
    }

    /// The app quits (or is killed): its `updates` stream ends; what arrives until the next launch waits.
    public func quit() async {
        let channel = launchBox.channel
        launchBox.channel = nil
        await channel?.end()
    }

    /// Whether the app is running (launched and not quit).
    public var isRunning: Bool { launchBox.channel != nil }

    /// The App Store sends the device a transaction (a new one, or a new version: a renewal, a refund, a
    /// family member's purchase shared). StoreKit keeps the newest version; if the app runs, `updates`
    /// emits it now (as `.unverified` when `unverified`, until ``verifyHeld()``); else at the next launch.
    public func receive(_ transaction: DeviceTransaction, unverified: Bool = false) async {
        guard let id = hold(transaction) else {
            violations.append("the model sent \(appleID) a transaction whose id is not a number: \(transaction.payload.transactionID)")
            return
        }
        if unverified { self.unverified.insert(id) }
        guard let channel = launchBox.channel else {
            arrivedWhileQuit.append(id)
            return
        }
        // This version, even when an older one arrives after a newer (reordering): StoreKit emits what it gets.
        guard let update = verification(of: transaction.payload, signed: transaction.signed, id: id) else { return }
        count(update)
        await channel.emit(update)
    }

    /// StoreKit can verify what it gave unverified: `updates` emits each such transaction again, verified.
    public func verifyHeld() async {
        let ids = order.filter { unverified.contains($0) }
        unverified.removeAll()
        guard let channel = launchBox.channel else { return }
        for id in ids {
            guard let update = verification(of: id) else { continue }
            count(update)
            await channel.emit(update)
        }
    }

    /// The same transaction again after the app finished it (StoreKit delivering twice): `updates` emits
    /// its newest version once more. Nothing when the app is not running or the device does not hold it.
    public func redeliver(transactionID: String) async {
        guard let id = UInt64(transactionID), let channel = launchBox.channel, let update = verification(of: id) else { return }
        count(update)
        await channel.emit(update)
    }

    /// The next `purchase` of `transaction`'s product answers with it (as `.unverified` when `unverified`,
    /// until ``verifyHeld()`` or the next launch). Arrange it before the app buys.
    public func expectPurchase(_ transaction: DeviceTransaction, unverified: Bool = false) {
        expected.append((transaction, unverified))
    }

    /// Purchases arranged and not bought.
    public var unboughtPurchases: [DeviceTransaction] { expected.map(\.transaction) }

    /// The model as it is now: subscription statuses and renewal info come from it.
    public func observe(_ model: StoreModel) {
        self.model = model
    }

    /// Asked at each first `finish()` of a transaction, before StoreKit marks it finished (nil: nothing asked).
    public func setFinishWitness(_ witness: FinishWitness?) {
        self.witness = witness
    }

    /// Returns once the app's updates listener has handled everything emitted so far.
    public func updatesHandled() async {
        await launchBox.channel?.drained()
    }

    /// The transactions not finished, by id, newest version.
    public var unfinishedTransactionIDs: [String] {
        order.filter { !finished.contains($0) }.compactMap { held[$0]?.payload.transactionID }
    }

    /// The transactions the app finished.
    public var finishedTransactionIDs: Set<String> { Set(finished.map(String.init)) }

    // MARK: StoreKit2Store

    /// `Product.purchase(options:)`: the transaction the model made for this purchase, which must be of the
    /// product, quantity and `appAccountToken` asked (https://developer.apple.com/documentation/storekit/product/purchaseoption/appaccounttoken(_:)).
    public func purchase(productID: String, quantity: Int, appAccountToken: UUID?, offer: PaymentOffer?) async throws(StoreKit2Failure)
        -> StoreKit2PurchaseResult {
        guard let index = expected.firstIndex(where: { $0.transaction.payload.productID == productID }) else {
            violations.append("the app bought \(productID) on \(appleID)'s device, and the model made no such purchase")
            throw StoreKit2Failure(.unknown, message: "the model made no purchase of \(productID)")
        }
        let (transaction, isUnverified) = expected.remove(at: index)
        let payload = transaction.payload
        // A plan change bought in the app continues its subscription: the model keeps the chain's token
        // (docs/store-model.md), which the purchase's own need not be; anything else carries the token asked.
        let changesPlan = payload.type == .autoRenewableSubscription && payload.originalTransactionID != payload.transactionID
        if payload.quantity != quantity || (!changesPlan && payload.appAccountToken != appAccountToken) {
            violations.append("the app bought \(quantity) of \(productID) with token \(appAccountToken?.uuidString ?? "none"); "
                + "the model's purchase is \(payload.quantity) with token \(payload.appAccountToken?.uuidString ?? "none")")
        }
        guard let id = hold(transaction) else {
            throw StoreKit2Failure(.unknown, message: "the model's transaction id is not a number: \(payload.transactionID)")
        }
        if isUnverified { unverified.insert(id) }
        counters.purchases += 1
        guard let result = verification(of: payload, signed: transaction.signed, id: id) else {
            throw StoreKit2Failure(.unknown, message: "unreadable transaction \(payload.transactionID)")
        }
        return .success(result)
    }

    /// This launch's `Transaction.updates` (see ``launch()``); an ended stream when the app is not running.
    public nonisolated func updates() -> AsyncStream<StoreKit2Verification> {
        guard let channel = launchBox.channel else { return AsyncStream { $0.finish() } }
        return channel.stream()
    }

    /// `Transaction.unfinished`: every transaction not finished, newest version, in the order the device got them.
    public func unfinished() async -> [StoreKit2Verification] {
        order.filter { !finished.contains($0) }.compactMap(verification(of:))
    }

    /// `Transaction.currentEntitlements` (Apple's rules in the type's comment).
    public func currentEntitlements() async -> [StoreKit2Verification] {
        var latestOfProduct: [String: UInt64] = [:]
        var latestOfSubscription: [String: UInt64] = [:]
        var nonConsumables: [UInt64] = []
        for id in order {
            guard let payload = held[id]?.payload, payload.revocationDate == nil else { continue }
            switch payload.type {
            case .consumable:
                continue
            case .nonConsumable:
                nonConsumables.append(id)
            case .nonRenewingSubscription:
                if latestOfProduct[payload.productID].flatMap({ held[$0]?.payload.purchaseDate }).map({ $0 <= payload.purchaseDate }) ?? true {
                    latestOfProduct[payload.productID] = id
                }
            case .autoRenewableSubscription:
                // An upgraded-from transaction entitles no longer: the higher level's does
                // (https://developer.apple.com/documentation/storekit/transaction/isupgraded).
                guard payload.isUpgraded != true else { continue }
                let original = payload.originalTransactionID
                if latestOfSubscription[original].flatMap({ held[$0]?.payload.purchaseDate }).map({ $0 <= payload.purchaseDate }) ?? true {
                    latestOfSubscription[original] = id
                }
            }
        }
        var entitled = Set(nonConsumables).union(latestOfProduct.values)
        for (original, id) in latestOfSubscription {
            let state = subscriptionStatus(originalTransactionID: original)?.state
            if state == .subscribed || state == .inGracePeriod { entitled.insert(id) }
        }
        return order.filter(entitled.contains).compactMap(verification(of:))
    }

    /// `AppStore.sync()`: the device holds what the model sent it already.
    public func sync() async throws(StoreKit2Failure) {}

    /// `Product.products(for:)`: the catalog's products among `ids` (the model has no prices: 0 USD).
    public func products(for ids: Set<String>) async throws(StoreKit2Failure) -> [any StoreKit2Product] {
        products.filter { ids.contains($0.id) }.map { ModelProduct(id: $0.id, productType: $0.type) }
    }

    /// `PurchaseIntent.intents`: the model starts no purchase outside the app.
    public nonisolated func purchaseIntents() -> AsyncStream<StoreKit2PurchaseIntent> { AsyncStream { $0.finish() } }

    // MARK: What transactions ask

    /// The subscription's status as `Transaction.subscriptionStatus` gives it: the model's state, with the
    /// grace period's end from its renewal info.
    func subscriptionStatus(originalTransactionID: String) -> StoreKit2SubscriptionStatus? {
        guard let subscription = model?.world.subscriptions[originalTransactionID] else { return nil }
        let state: StoreKit2RenewalState = switch subscription.state {
        case .active: .subscribed
        case .expired: .expired
        case .billingRetry: .inBillingRetryPeriod
        case .gracePeriod: .inGracePeriod
        case .revoked: .revoked
        }
        return StoreKit2SubscriptionStatus(state: state, gracePeriodExpirationDate: subscription.gracePeriodExpiresDate)
    }

    /// `Transaction.finish()`: asks the witness, then marks the transaction finished.
    func finish(_ transaction: ModelTransaction) async {
        guard held[transaction.id] != nil else {
            violations.append("the app finished \(transaction.id) on \(appleID)'s device, which its StoreKit never gave")
            return
        }
        // Only a first finish is asked about: finishing again what StoreKit finished already changes nothing.
        if !finished.contains(transaction.id), let witness, let problem = await witness(transaction.payload) { violations.append(problem) }
        if finished.insert(transaction.id).inserted { counters.finishes += 1 } else { counters.finishesAgain += 1 }
    }

    // MARK: Keeping

    /// Keeps `transaction` as its id's newest version if it is (by `signedDate`); answers its id.
    private func hold(_ transaction: DeviceTransaction) -> UInt64? {
        guard let id = UInt64(transaction.payload.transactionID) else { return nil }
        if let kept = held[id] {
            if transaction.payload.signedDate >= kept.payload.signedDate { held[id] = (transaction.payload, transaction.signed) }
        } else {
            held[id] = (transaction.payload, transaction.signed)
            order.append(id)
        }
        return id
    }

    /// The newest version of `id`, verified unless StoreKit cannot verify it now.
    private func verification(of id: UInt64) -> StoreKit2Verification? {
        guard let kept = held[id] else { return nil }
        return verification(of: kept.payload, signed: kept.signed, id: id)
    }

    private func verification(of payload: TransactionPayload, signed: String, id: UInt64) -> StoreKit2Verification? {
        guard let transaction = ModelTransaction(payload: payload, signed: signed, device: self) else { return nil }
        // `VerificationResult.VerificationError.invalidDeviceVerification`: a device-side failure, the one a
        // later check can pass (https://developer.apple.com/documentation/storekit/verificationresult/verificationerror).
        return unverified.contains(id) ? .unverified(transaction, reason: "invalidDeviceVerification") : .verified(transaction)
    }

    private func count(_ update: StoreKit2Verification) {
        counters.updatesEmitted += 1
        if case .unverified = update { counters.unverifiedEmitted += 1 }
    }
}

/// The current launch's updates channel, read by the nonisolated `updates()` the backend calls as it is made.
private final class LaunchBox: Sendable {
    private let current = Locked<UpdateChannel?>(nil)

    var channel: UpdateChannel? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

/// A catalog product as `Product` gives it.
struct ModelProduct: StoreKit2Product {
    let id: String
    var displayName: String { id }
    var description: String { id }
    var price: Decimal { 0 }
    var displayPrice: String { "$0.00" }
    var currencyCode: String { "USD" }
    let productType: ProductType?
}
