import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperHTTP
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperTestSupport
import Testing

/// The user's second device, as a new user meets it (issue 25, finding 10):
/// a queue over real HTTP on loopback (``HTTPServerTransport`` in front of
/// ``SimulatedServer``), with what the first device left on the server.
@Suite struct SecondDeviceTests {
    static let user = "alice"
    static let credits = "com.example.credits.50"
    static let pack = "com.example.pack"
    static let monthly = "com.example.monthly"
    static let packPath = "packs/level-2.zip"

    /// Credits kept on the server, a pack of server-delivered content kept
    /// on the server and restored by replaying transactions, a subscription.
    static let catalog = """
        catalog: second-device
        format: 1
        app: {bundle-id: com.example.second, platforms: [ios], minimum-os: "16.0"}
        server: {url: "https://api.example.com", identity: account}
        features: [level-2, premium]
        balances: [credits]
        groups:
          premium: {name: Premium}
        products:
        \(ProductText.product(id: credits, type: "consumable", delivery: "{model: built-in, grants: {credits: 50}}", persistence: "server", restore: "none"))\
        \(ProductText.product(id: pack, type: "non-consumable", delivery: "{model: server, unlocks: [level-2], content: {source: server, path: \(packPath), storage: documents}}", persistence: "server", restore: "restore-transactions"))\
        \(ProductText.product(id: monthly, type: "auto-renewable-subscription", delivery: "{model: server, unlocks: [premium]}", persistence: "server", restore: "server"))
        """

    /// The second device: a fresh journal, the server over HTTP.
    struct Device {
        let queue: TransactionQueue
        let store: RestoringStore
        let folder: URL
    }

    /// Runs `body` with a loopback server holding what the first device
    /// left (the records of its purchases, a subscription whose period ends
    /// at a fraction of a second) and the second device's queue, started.
    static func withSecondDevice(_ body: (Device, LoopbackServer) async throws -> Void) async throws {
        let folder = try ScratchFolder.create(prefix: "storekeeper-second")
        defer { ScratchFolder.remove(folder) }
        let catalogPath = folder.appendingPathComponent("catalog.yaml").path
        try Self.catalog.write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let policy = try PolicyLoader().load(contentsOf: catalogPath)

        let simulated = SimulatedServer(user: user, policy: policy)
        let loopback = try LoopbackServer(server: simulated)
        defer { loopback.stop() }
        let credential = simulated.credential(for: user)
        let transport = try HTTPServerTransport(baseURL: loopback.url, credential: { credential },
                                                content: ContentFolders(root: folder.appendingPathComponent("home")))

        // What the first device left: its purchases' records, the pack's file.
        let bought = Date(timeIntervalSince1970: 1_800_000_000)
        let records = ServerRecordStore(transport: transport)
        try await records.keep(StoredRecord(strategy: .server, productID: credits, value: .transaction(id: "t1", quantity: 2),
                                            transactionID: "t1", applicationUsername: user, purchaseDate: bought))
        try await records.keep(StoredRecord(strategy: .server, productID: pack, value: .transaction(id: "t2", quantity: 1),
                                            transactionID: "t2", applicationUsername: user, purchaseDate: bought))
        try await records.keep(StoredRecord(strategy: .server, productID: monthly, value: .transaction(id: "t3", quantity: 1),
                                            transactionID: "t3", applicationUsername: user, purchaseDate: bought,
                                            expirationDate: Date(timeIntervalSince1970: 4_000_000_000.25)))
        simulated.publish(Array("level two".utf8), at: packPath, for: pack)

        let store = RestoringStore(restores: [StoreTransaction(
            TransactionInfo(id: "t9", productID: pack, state: .restored, applicationUsername: user, receipt: Array("receipt".utf8)),
            originalID: "t2", purchaseDate: bought)])
        let configuration = QueueConfiguration(
            journalPath: folder.appendingPathComponent("journal.sqlite").path, durability: .appCrash,
            retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(40), jitter: 0),
            services: EngineServices(server: transport), recordStores: RecordStores(server: records),
            now: { Date(timeIntervalSince1970: 1_800_000_100) })
        let queue = try TransactionQueue(policy: policy, store: store, configuration: configuration)
        try await queue.start()
        try await body(Device(queue: queue, store: store, folder: folder), loopback)
        await queue.stop()
    }

    @Test func theSecondDeviceShowsTheServersBalanceAndSaysWhenItCannot() async throws {
        try await Self.withSecondDevice { device, loopback in
            // The first device spent 30 of its 100 credits since.
            let spend = try await loopback.server.send(ServerRequest(method: "PUT", path: "/v1/spends/first-1",
                                                                     body: Array(#"{"balance":"credits","amount":30}"#.utf8)))
            #expect(spend.status == 200)
            await device.queue.refreshEntitlements()
            let now = await device.queue.entitlements()
            #expect(loopback.server.balance("credits", of: Self.user) == 70)
            #expect(now.balance("credits") == 70, "the server's balance, its answer listing a subscription that ends at .25 s")
            #expect(now.unconfirmed.isEmpty, "\(now.unconfirmed)")
            #expect(now.owns(Self.monthly))

            // The server goes away: the balance stays, marked unconfirmed, saying what failed.
            loopback.stop()
            await device.queue.refreshEntitlements()
            let offline = await device.queue.entitlements()
            #expect(offline.balance("credits") == 70)
            let reason = try #require(offline.unconfirmed["credits"])
            #expect(reason.contains("GET /v1/entitlements"), "\(reason)")
            #expect(offline.owns(Self.monthly), "the server's records read last stay while it cannot be read")
        }
    }

    @Test func aRestoredPackOfServerContentIsDownloadedOnTheSecondDevice() async throws {
        try await Self.withSecondDevice { device, _ in
            #expect(await device.queue.entitlements().owns(Self.pack), "owned through the server's record")
            await device.queue.restoreCompletedTransactions()
            await device.store.waitUntilFinished("t9")
            let location = try #require(try await device.queue.contentLocations()[Self.pack], "the restored plan downloads the pack")
            #expect(location.source == .server)
            #expect(FileManager.default.contents(atPath: location.path).map(Array.init) == Array("level two".utf8), "\(location.path)")
        }
    }
}

/// A store for one device: a restore replays the transactions it was given,
/// then says the restore finished; finishing is remembered.
actor RestoringStore: StoreBackend {
    private let restores: [StoreTransaction]
    private var sink: StoreEventSink?
    private var finished: Set<String> = []
    private var waiters: [(id: String, continuation: CheckedContinuation<Void, Never>)] = []

    init(restores: [StoreTransaction]) { self.restores = restores }

    func connect(_ sink: StoreEventSink) async { self.sink = sink }
    func add(_ payment: Payment) async {}
    func receiptEntries() async -> [ReceiptEntry] { [] }

    func restoreCompletedTransactions(applicationUsername: String?) async {
        for transaction in restores { sink?.send(.updated(transaction)) }
        sink?.send(.restoreFinished)
    }

    func finish(transactionID: String) async throws(StepFailure) {
        finished.insert(transactionID)
        for waiter in waiters where waiter.id == transactionID { waiter.continuation.resume() }
        waiters.removeAll { $0.id == transactionID }
    }

    /// Returns once `id` is finished (at most 10 s: a test never hangs).
    func waitUntilFinished(_ id: String) async {
        if finished.contains(id) { return }
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .seconds(10))
            await self?.finish(id)
        }
        await withCheckedContinuation { waiters.append((id, $0)) }
        timeout.cancel()
    }

    private func finish(_ id: String) {
        for waiter in waiters where waiter.id == id { waiter.continuation.resume() }
        waiters.removeAll { $0.id == id }
    }
}
