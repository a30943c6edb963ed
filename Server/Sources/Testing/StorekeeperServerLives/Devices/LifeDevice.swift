import Foundation
import StorekeeperCore
import StorekeeperDeviceLives
import StorekeeperHTTP
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperServer
import StorekeeperStoreKit
import StorekeeperStoreModel
import StorekeeperTestChain

/// The device of one person of a life: the app's real `TransactionQueue` on a journal of its own, over a
/// `StoreKit2Backend` whose StoreKit is `StorekeeperDeviceLives`' `ModelStoreKit2Device` (driven by the App
/// Store model), talking to the life's server over real HTTP with `HTTPServerTransport` and the app account's
/// credential: the queue's server-delivered plans post each signed transaction (`POST /v1/transactions`),
/// keep its record (`PUT /v1/records`), and read `GET /v1/entitlements` for the balances the server keeps.
///
/// The device outlives the app's launches: ``relaunch()`` stops the queue, quits the app and launches it
/// again on the same journal, as a person closing and reopening the app does.
final class LifeDevice: @unchecked Sendable {
    // @unchecked: `backend` and `queue` change only in `relaunch()`, called by the driver's one task between awaits.
    /// Whose device it is.
    let person: LifePerson
    /// The server instance it talks to.
    let instance: Int
    /// Its connection to the server.
    let transport: DeviceTransport
    /// Its StoreKit, driven by the model.
    let store: ModelStoreKit2Device
    private let policy: CompiledPolicy
    private let configuration: QueueConfiguration
    private var backend: StoreKit2Backend
    private var queue: TransactionQueue

    /// Rounds of `retryNow` a device gets to finish its work at a checkpoint (a round retries every step
    /// that waits; one is enough once the server is up, the rest cover a 503 under load).
    static let settleRounds = 4

    private init(person: LifePerson, instance: Int, transport: DeviceTransport, store: ModelStoreKit2Device, policy: CompiledPolicy,
                 configuration: QueueConfiguration, backend: StoreKit2Backend, queue: TransactionQueue) {
        self.person = person
        self.instance = instance
        self.transport = transport
        self.store = store
        self.policy = policy
        self.configuration = configuration
        self.backend = backend
        self.queue = queue
    }

    /// A device for `person`, its journal in `folder`, signed in to the app as the person's account, talking
    /// to the instance at `baseURL` (offline when nil); the app launched (nothing to replay: a new journal).
    static func start(
        person: LifePerson, instance: Int, baseURL: String?, folder: URL, world: LivesWorld, clock: LifeClock
    ) async throws -> LifeDevice {
        let secret = world.server.clientTokenSecret
        let account = person.account
        let transport = DeviceTransport(
            account: account, content: ContentFolders(root: folder.appendingPathComponent("\(account)-content", isDirectory: true)),
            credential: { try ClientToken.issue(user: account, expiresAt: clock.now.addingTimeInterval(3_600), secret: secret) })
        if let baseURL { try transport.point(to: baseURL) }
        let store = ModelStoreKit2Device(appleID: person.appleID, products: world.policy.products)
        // The app finishes a transaction only once the server keeps it (its plan posted it): asked at each first finish.
        await store.setFinishWitness { payload in
            guard payload.revocationDate == nil, payload.isUpgraded != true, !transport.kept(payload.transactionID) else { return nil }
            return "the app of \(account) finished \(payload.transactionID) (\(payload.productID)) before the server kept it"
        }
        let configuration = QueueConfiguration(
            journalPath: folder.appendingPathComponent("\(account).journal.sqlite").path, durability: .appCrash,
            services: EngineServices(server: transport), recordStores: RecordStores(server: ServerRecordStore(transport: transport)),
            now: { clock.now })
        let (backend, queue) = try await launch(store: store, account: account, policy: world.policy, configuration: configuration)
        return LifeDevice(person: person, instance: instance, transport: transport, store: store, policy: world.policy,
                          configuration: configuration, backend: backend, queue: queue)
    }

    /// The app launches: StoreKit's new `updates` (its launch replay), then the backend, then the queue on its journal.
    private static func launch(
        store: ModelStoreKit2Device, account: String, policy: CompiledPolicy, configuration: QueueConfiguration
    ) async throws -> (StoreKit2Backend, TransactionQueue) {
        await store.launch()
        let backend = StoreKit2Backend(store: store, applicationUsername: account)
        let queue = try TransactionQueue(policy: policy, store: backend, configuration: configuration)
        try await queue.start()
        await store.updatesHandled()
        await queue.whenIdle()
        return (backend, queue)
    }

    /// The person closes the app and opens it again: the queue stops, the app quits, and it launches again
    /// over the same journal and the same StoreKit.
    func relaunch() async throws {
        await queue.whenIdle()
        await queue.stop()
        await store.quit()
        (backend, queue) = try await Self.launch(store: store, account: person.account, policy: policy, configuration: configuration)
    }

    /// The model as it is now (subscription statuses, grace periods).
    func observe(_ model: StoreModel) async {
        await store.observe(model)
    }

    /// The person buys through the app: the payment goes to the queue, and StoreKit answers with the
    /// model's transaction. The app gives its `applicationUsername` (so StoreKit the account's token) when
    /// the model's transaction carries the token: not for a purchase without one, but for an upgrade within
    /// a subscription bought with one, which the model signs with the subscription's token.
    func buy(_ purchase: Purchase, answer: DeviceTransaction, unverified: Bool = false) async throws(PaymentError) {
        await store.expectPurchase(answer, unverified: unverified)
        let user = answer.payload.appAccountToken != nil ? purchase.account : nil
        try await queue.add(Payment(productID: purchase.productID, quantity: purchase.quantity, applicationUsername: user))
        await idle()
    }

    /// StoreKit hands over a transaction that happened outside a purchase (`Transaction.updates`), as
    /// `.unverified` when `unverified` (until ``verifyHeld()`` or the next launch).
    func receive(_ transaction: DeviceTransaction, unverified: Bool = false) async {
        await store.receive(transaction, unverified: unverified)
        await idle()
    }

    /// StoreKit delivers a transaction again after the app finished it.
    func redeliver(_ transactionID: String) async {
        await store.redeliver(transactionID: transactionID)
        await idle()
    }

    /// StoreKit verifies what it could not: each such transaction again, verified.
    func verifyHeld() async {
        await store.verifyHeld()
        await idle()
    }

    /// Waits for the updates listener and the queue.
    func idle() async {
        await store.updatesHandled()
        await queue.whenIdle()
    }

    /// Runs every step that waits (the server was down, or busy) until nothing waits or `settleRounds`
    /// rounds passed; answers what is still not done.
    func settle() async -> [PendingTransaction] {
        await idle()
        var pending = await queue.pending()
        var rounds = 0
        while !pending.isEmpty, rounds < Self.settleRounds {
            rounds += 1
            await queue.retryNow()
            await idle()
            pending = await queue.pending()
        }
        return pending
    }

    /// What the app shows now, after reading the server again (`refreshEntitlements()`, as an app does
    /// when it comes to the foreground).
    func entitlements() async -> Entitlements {
        await queue.refreshEntitlements()
        return await queue.entitlements()
    }

    /// What the fake StoreKit saw the app do wrong.
    func violations() async -> [String] {
        await store.violations
    }

    /// A spend through the queue (the balance is kept on the server: `PUT /v1/spends/{key}`).
    func spend(_ amount: Int, of balance: String, key: String) async -> Result<Int, SpendError> {
        do throws(SpendError) {
            return .success(try await queue.spend(amount, of: balance, key: key))
        } catch {
            return .failure(error)
        }
    }

    /// Stops the queue and closes its journal; the app quits.
    func stop() async {
        await queue.stop()
        await store.quit()
    }
}
