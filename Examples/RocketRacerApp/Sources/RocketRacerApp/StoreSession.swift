import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperStoreKit

/// A purchase run as the app runs it: the policy compiled at build time and
/// bundled with the app, the transaction queue, and a store. The queue, the
/// observer and the product lookup are the same whichever store it is: on an
/// Apple device the App Store through StoreKit 2 (``StoreSession/deviceStore(user:pendingPurchasesFile:)``);
/// in this command-line run, which has no App Store account, the simulated store.
enum StoreSession {
    /// The player's name in the app: the queue's user, and (derived from it)
    /// StoreKit 2's appAccountToken.
    static let player = "player-1"

    /// What the app gives the queue on a device: StoreKit 2, through
    /// Storekeeper's backend. Purchases map to the guide's states (success:
    /// purchased, pending: deferred, cancelled: failed), unfinished
    /// transactions are replayed at start, `Transaction.updates` are
    /// updates, and `finish()` is called only when the plan's `finish` step
    /// runs. See docs/storekit-backends.md.
    #if canImport(StoreKit)
    /// Ask to Buy requests are kept in `pendingPurchasesFile` (beside the
    /// journal), so that an approval after a relaunch reaches the user who asked.
    static func deviceStore(user: String, pendingPurchasesFile: URL) throws -> StoreKit2Backend {
        try StoreKit2Backend(store: AppleStoreKit2Store(), applicationUsername: user, pendingPurchasesFile: pendingPurchasesFile)
    }
    #endif

    /// Loads the catalog's products from `store` (their localized prices),
    /// buys the Rocket Car and three times 500 Coins through the queue, and
    /// returns the prices and what the queue then says the player is entitled to.
    static func buyRocketCarAndCoins() async throws -> (prices: [String], entitlements: Entitlements) {
        // storekeeper-policy.json, which StorekeeperPolicyPlugin compiled from catalog.yaml.
        let policy = try CompiledPolicy.bundled(in: .module)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rocket-racer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let simulated = SimulatedAppStore(policy: policy, seed: 1, clock: SimulationClock(start: Date(timeIntervalSince1970: 1_800_000_000)))
        let store = simulated.device("phone")
        let configuration = QueueConfiguration(
            journalPath: folder.appendingPathComponent("journal.sqlite").path,
            recordStores: RecordStores(
                userDefaults: FileKeyValueStore(path: folder.appendingPathComponent("user-defaults.json").path),
                iCloud: SyncedKeyValueStore(folderPath: folder.path, device: "phone")))
        let queue = try TransactionQueue(policy: policy, store: store, configuration: configuration)
        try await queue.start()

        // The store screen: what the store sells here, at its price (Product.products(for:) on a device).
        let lookup = try await store.products(declaredIn: policy)
        let prices = lookup.products.map { "\($0.id): \($0.displayPrice)" } + lookup.unknownIDs.map { "\($0): not sold" }

        try await queue.add(Payment(productID: Product.rocketCar.rawValue, applicationUsername: player))
        try await queue.add(Payment(productID: Product.coins500.rawValue, quantity: 3, applicationUsername: player))
        // The App Store answers after its sheet; the queue runs each plan, exactly once.
        await simulated.processPayments(device: "phone")
        await queue.whenIdle()
        let entitlements = await queue.entitlements()
        await queue.stop()
        return (prices, entitlements)
    }
}
