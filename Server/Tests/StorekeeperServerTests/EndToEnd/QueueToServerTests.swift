import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import StorekeeperCore
import StorekeeperHTTP
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperSimulatedStore
import StorekeeperTestChain
import StorekeeperVerification
import Testing

/// The whole delivery model, end to end: the app's durable queue buys through
/// the simulated App Store, which signs each transaction with the test chain
/// as StoreKit 2 does; the queue's plans talk to the real server over real
/// HTTP on loopback through `HTTPServerTransport` (verify the signed
/// transaction, keep the record, download the content); and what the app
/// and the server each believe the user has agrees.
@Suite struct QueueToServerTests {
    @Test(arguments: TestBackend.available)
    func purchasesMadeOnTheDeviceAreVerifiedKeptAndServedAndBothSidesAgree(backend: TestBackend) async throws {
        let chain = try ServerHarness.chain()
        let policy = try ServerHarness.policy()
        try await ScratchFolder.with(prefix: "storekeeper-e2e") { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("content/packs"), withIntermediateDirectories: true)
            try Data(ServerHarness.level2Bytes).write(to: folder.appendingPathComponent("content/packs/level-2.zip"))

            let verifier = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: ServerHarness.bundleID, environment: .sandbox)
            let configuration = ServerConfiguration(
                policy: policy, verifiers: try TransactionVerifiers(verifier), clientTokenSecret: try ClientTokenSecret(ServerHarness.secret),
                operatorKey: try OperatorKey(ServerHarness.operatorKeyText),
                content: try FolderContentStore(path: folder.appendingPathComponent("content").path))
            let token = try ClientToken.issue(user: "alice", expiresAt: Date().addingTimeInterval(3_600), secret: configuration.clientTokenSecret)

            try await backend.withStorage { storage, _ in
                let router = buildRouter(configuration: configuration, storage: storage, metrics: ServerMetrics(registry: .init()))
                let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
                try await app.test(.live) { client in
                    let port = try #require(client.port)
                    let transport = try HTTPServerTransport(
                        baseURL: "http://127.0.0.1:\(port)", credential: { token },
                        content: ContentFolders(root: folder.appendingPathComponent("device", isDirectory: true)))

                    // The device: the simulated store signing as StoreKit 2, the queue on its journal.
                    let store = SimulatedAppStore(
                        policy: policy, seed: 7, clock: SimulationClock(start: Date().addingTimeInterval(-600)),
                        signing: TransactionSigning(signer: TestChainTransactionSigner(chain: chain), bundleID: ServerHarness.bundleID))
                    let queue = try TransactionQueue(
                        policy: policy, store: store.device("phone"),
                        configuration: QueueConfiguration(
                            journalPath: folder.appendingPathComponent("journal.sqlite").path,
                            services: EngineServices(server: transport),
                            recordStores: RecordStores(server: ServerRecordStore(transport: transport))))
                    try await queue.start()
                    for (product, quantity) in [(ServerHarness.coins, 3), (ServerHarness.pro, 1), (ServerHarness.level2, 1), (ServerHarness.monthly, 1)] {
                        try await queue.add(Payment(productID: product, quantity: quantity, applicationUsername: "alice"))
                        await store.processPayments(device: "phone")
                        await queue.whenIdle()
                    }

                    // Every transaction finished on the device: each plan's server steps succeeded.
                    let pending = await queue.pending()
                    #expect(pending.isEmpty, "\(pending)")
                    let device = await queue.entitlements()
                    #expect(device.balances["coins"] == 300)
                    #expect(device.features == ["pro", "level-2", "premium"])

                    // The server verified and kept each signed transaction once, for alice only.
                    let kept = try await storage.transactions(of: "alice")
                    #expect(Set(kept.map(\.productID)) == [ServerHarness.coins, ServerHarness.pro, ServerHarness.level2, ServerHarness.monthly])
                    #expect(kept.allSatisfy { $0.payload.split(separator: ".").count == 3 }, "each kept with the JWS it was verified from")
                    #expect(try await storage.records(of: "alice").count == 4, "the records of the server persistence strategy")

                    // The server's view, read by the app's own client, agrees with the device's.
                    let served = try await ServerAccount(transport: transport).entitlements()
                    #expect(Set(served.features) == device.features)
                    #expect(served.balances == device.balances)
                    #expect(Set(served.products) == device.ownedProducts)
                    #expect(served.subscriptions.map(\.product) == [ServerHarness.monthly])

                    // The content the plan downloaded is the server's file, byte for byte.
                    let location = try #require(try await queue.contentLocations().values.first)
                    #expect(try Data(contentsOf: URL(fileURLWithPath: location.path)) == Data(ServerHarness.level2Bytes))
                    await queue.stop()
                }
            }
        }
    }
}
