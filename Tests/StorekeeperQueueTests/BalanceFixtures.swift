import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperTestSupport
import Testing

/// A catalog with a balance of each keeping (coins on the device, gems in
/// iCloud, credits on the server) and the user's devices: each with its own
/// journal and store, sharing an iCloud folder and a server.
enum BalanceFixtures {
    typealias H = DeliveryHarness

    static let coins = "com.example.coins.100"
    static let gems = "com.example.gems.10"
    static let credits = "com.example.credits.50"

    static let catalog = """
        catalog: balances
        format: 1
        app: {bundle-id: com.example.balances, platforms: [ios], minimum-os: "16.0"}
        server: {url: "https://api.example.com", identity: account}
        balances: [coins, gems, credits]
        products:
        \(ProductText.product(id: coins, type: "consumable", delivery: "{model: built-in, grants: {coins: 100}}", persistence: "app-state", restore: "none"))\
        \(ProductText.product(id: gems, type: "consumable", delivery: "{model: built-in, grants: {gems: 10}}", persistence: "icloud", restore: "none"))\
        \(ProductText.product(id: credits, type: "consumable", delivery: "{model: built-in, grants: {credits: 50}}", persistence: "server", restore: "none"))
        """

    static func policy() throws -> CompiledPolicy {
        try QueueFixtures.policy(catalog.replacingOccurrences(of: "    delivery:", with: "    max-quantity: 10\n    delivery:"))
    }

    /// What the user's devices share: an iCloud folder and a server.
    final class Account: Sendable {
        let folder: URL
        let server: SimulatedServer
        let policy: CompiledPolicy

        init(name: String = #function) throws {
            folder = try QueueFixtures.folder(name)
            policy = try BalanceFixtures.policy()
            server = SimulatedServer(policy: policy)
        }

        /// The iCloud folder a device sees (its own when the devices have not synced).
        func iCloud(_ shared: String = "icloud") -> String { folder.appendingPathComponent(shared).path }
    }

    /// One device: its journal, its store, its queue.
    struct Device {
        let name: String
        let store: ScriptedStore
        let queue: TransactionQueue
        let log: EventLog

        init(_ name: String, of account: Account, store: ScriptedStore = ScriptedStore(), iCloud: String? = nil,
             transport: (any ServerTransport)? = nil, faults: (@Sendable (FaultPoint) -> Void)? = nil) throws {
            self.name = name
            self.store = store
            log = EventLog()
            let journalFolder = account.folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: journalFolder, withIntermediateDirectories: true)
            let transport = transport ?? account.server
            var configuration = QueueFixtures.configuration(
                journalFolder,
                recordStores: RecordStores(iCloud: SyncedKeyValueStore(folderPath: iCloud ?? account.iCloud(), device: name),
                                           server: ServerRecordStore(transport: transport)),
                services: EngineServices(server: transport))
            configuration.faultInjection = faults
            queue = try TransactionQueue(policy: account.policy, store: store, configuration: configuration)
        }

        func start() async throws { try await queue.start(observers: [log]) }

        /// Delivers a purchase of `product` and waits until it is finished.
        func buy(_ product: String, id: String, quantity: Int = 1) async throws {
            let info = TransactionInfo(id: id, productID: product, state: .purchased, quantity: quantity, receipt: Array("receipt of \(id)".utf8))
            await store.send(StoreTransaction(info, purchaseDate: Date(timeIntervalSince1970: 1_800_000_000)))
            try await H.settle(queue, log) { $0.contains(.removed(info)) }
            let pending = await queue.pending()
            #expect(pending.isEmpty, "\(pending.map { "\($0.transaction.id) at \($0.step ?? "-"): \($0.lastError ?? "-")" })")
        }

        func balance(_ name: String) async -> Int { await queue.entitlements().balance(name) }
    }

    /// The error `body` throws, or nil when it returns.
    static func spendError(_ body: () async throws(SpendError) -> Int) async -> SpendError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}
