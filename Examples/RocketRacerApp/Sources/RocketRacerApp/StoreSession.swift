import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore

/// A purchase run as the app runs it: the policy compiled at build time and
/// bundled with the app, the transaction queue, and a store. Here the store
/// is the simulated App Store, so the run needs no account and no network;
/// an app on a device gives the queue its StoreKit backend instead.
enum StoreSession {
    /// Buys the Rocket Car and three times 500 Coins, and returns what the
    /// queue then says the player is entitled to.
    static func buyRocketCarAndCoins() async throws -> Entitlements {
        // storekeeper-policy.json, which StorekeeperPolicyPlugin compiled from catalog.yaml.
        let policy = try CompiledPolicy.bundled(in: .module)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rocket-racer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let store = SimulatedAppStore(policy: policy, seed: 1, clock: SimulationClock(start: Date(timeIntervalSince1970: 1_800_000_000)))
        let configuration = QueueConfiguration(
            journalPath: folder.appendingPathComponent("journal.sqlite").path,
            recordStores: RecordStores(
                userDefaults: FileKeyValueStore(path: folder.appendingPathComponent("user-defaults.json").path),
                iCloud: SyncedKeyValueStore(folderPath: folder.path, device: "phone")))
        let queue = try TransactionQueue(policy: policy, store: store.device("phone"), configuration: configuration)
        try await queue.start()
        try await queue.add(Payment(productID: Product.rocketCar.rawValue))
        try await queue.add(Payment(productID: Product.coins500.rawValue, quantity: 3))
        // The App Store answers after its sheet; the queue runs each plan, exactly once.
        await store.processPayments(device: "phone")
        await queue.whenIdle()
        let entitlements = await queue.entitlements()
        await queue.stop()
        return entitlements
    }
}
