import Foundation
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperTestSupport
import Testing

/// A simulated store over a small catalog with one product of each type,
/// driven as a queue drives it: the store's events go to a real
/// `StoreEventSink` over the queue's inbox (internal, hence `@testable`),
/// drained after each call.
struct SigningStore {
    static let coins = "com.example.signing.coins"
    static let pro = "com.example.signing.pro"
    static let plus = "com.example.signing.plus.monthly"
    static let pass = "com.example.signing.pass.spring"

    static let catalog = """
        catalog: signing
        app: {bundle-id: \(OracleFixtures.bundleID)}
        features: [pro]
        balances: [coins]
        groups: {premium: {name: Premium}}
        products:

        """
        + ProductText.product(id: coins, type: "consumable", delivery: "{model: built-in, grants: {coins: 5}}",
                              persistence: "user-defaults", restore: "none")
        + ProductText.product(id: pro, type: "non-consumable", delivery: "{model: built-in, unlocks: [pro]}",
                              persistence: "receipt", restore: "restore-transactions")
        + ProductText.product(id: plus, type: "auto-renewable-subscription", delivery: "{model: built-in, unlocks: [pro]}",
                              persistence: "receipt", restore: "restore-transactions")
        + ProductText.product(id: pass, type: "non-renewing-subscription", delivery: "{model: built-in, unlocks: [pro]}",
                              persistence: "user-defaults", restore: "none")

    let clock = SimulationClock(start: OracleFixtures.signedDate)
    let recorder = TraceRecorder()
    let store: SimulatedAppStore
    let inbox = Inbox()
    let device: SimulatedDevice

    init(signing: TransactionSigning?) throws {
        let policy = try ScratchFolder.with(prefix: "storekeeper-signing") { folder in
            let path = folder.appendingPathComponent("catalog.yaml").path
            try Self.catalog.write(toFile: path, atomically: true, encoding: .utf8)
            return try PolicyLoader().load(contentsOf: path)
        }
        store = SimulatedAppStore(policy: policy, seed: 3, clock: clock, recorder: recorder, signing: signing)
        device = store.device("phone")
    }

    /// The app starts (again): the store delivers what is unfinished.
    func launch() async -> [StoreTransaction] {
        await store.disconnect(device.name)
        await device.connect(StoreEventSink(inbox: inbox))
        return await updates()
    }

    /// Every transaction the store sent since the last call.
    func updates() async -> [StoreTransaction] {
        var updates: [StoreTransaction] = []
        while !inbox.isIdle {
            for item in await inbox.take(limit: 10_000) {
                if case .store(.updated(let transaction)) = item { updates.append(transaction) }
            }
            _ = inbox.settle()
        }
        return updates
    }

    /// A payment the store answers with `outcome`: every update it sent (`purchasing` first).
    func buy(_ productID: String, quantity: Int = 1, user: String? = nil, outcome: PurchaseOutcome = .succeed) async -> [StoreTransaction] {
        _ = await updates()
        await store.prepareOutcome(outcome, device: device.name)
        await device.add(Payment(productID: productID, quantity: quantity, applicationUsername: user))
        await store.processPayments(device: device.name)
        return await updates()
    }

    /// A purchase that goes through, finished as a plan would; its `purchased` transaction.
    func buyAndFinish(_ productID: String, quantity: Int = 1, user: String? = nil,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> StoreTransaction {
        let transaction = try #require(await buy(productID, quantity: quantity, user: user).last, sourceLocation: sourceLocation)
        #expect(transaction.info.state == .purchased, sourceLocation: sourceLocation)
        try await device.finish(transactionID: transaction.id)
        return transaction
    }

    /// The trace's notes.
    var notes: [String] {
        recorder.recorded.compactMap { if case .note(let text) = $0 { text } else { nil } }
    }
}
