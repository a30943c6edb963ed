import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// What becomes of the effects a plan's steps append: a step that fails
/// leaves none, and a `SynchronousStepPlugin`, which the queue calls inline,
/// has its notifications told, its records written to their store and its
/// `finish` dropped, as a plugin called with `await` has. Each test runs
/// Rocket Racer's `audit-log` both ways (`synchronous: true` and `false`).
@Suite struct StepEffectsTests {
    static let coins = "com.example.rocketracer.coins.500"

    /// Rocket Racer's `audit-log`, appending what `append` gives and then
    /// throwing `failure`, if any; synchronous.
    struct SynchronousAuditLog: SynchronousStepPlugin {
        let name = "audit-log"
        let append: @Sendable (StepContext) -> [Effect]
        let failure: StepFailure?

        func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
            effects.append(contentsOf: append(context))
            if let failure { throw failure }
        }
    }

    /// The same, called with `await`.
    struct AsynchronousAuditLog: StepPlugin {
        let name = "audit-log"
        let append: @Sendable (StepContext) -> [Effect]
        let failure: StepFailure?

        func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
            await Task.yield()
            effects.append(contentsOf: append(context))
            if let failure { throw failure }
        }
    }

    /// Rocket Racer with an `audit-log` that appends what `append` gives, then throws `failure`.
    static func policy(synchronous: Bool, failure: StepFailure? = nil,
                       _ append: @escaping @Sendable (StepContext) -> [Effect]) throws -> CompiledPolicy {
        var plugins = PluginRegistry()
        if synchronous {
            try plugins.register(SynchronousAuditLog(append: append, failure: failure))
        } else {
            try plugins.register(AsynchronousAuditLog(append: append, failure: failure))
        }
        return try QueueFixtures.example("rocket-racer", plugins: plugins)
    }

    /// A queue over `policy` that has bought one pouch of 500 coins (transaction `t1`) and is idle.
    static func boughtCoins(_ policy: CompiledPolicy, recordStores: RecordStores = RecordStores(),
                            name: String = #function) async throws -> (queue: TransactionQueue, store: ScriptedStore, log: EventLog) {
        let folder = try QueueFixtures.folder(name)
        let store = ScriptedStore()
        let log = EventLog()
        let queue = try TransactionQueue(policy: policy, store: store, configuration: QueueFixtures.configuration(folder, recordStores: recordStores))
        try await queue.start(observers: [log])
        try await queue.add(Payment(productID: coins))
        await queue.whenIdle()
        return (queue, store, log)
    }

    /// The failures told of a transaction's steps, as `step: reason`.
    static func failures(of transactionID: String, in log: EventLog) async -> [String] {
        await log.events.compactMap {
            if case .stepFailed(let info, let step, let failure, _) = $0, info.id == transactionID { "\(step): \(failure.reason)" } else { nil }
        }
    }

    @Test(arguments: [true, false])
    func aStepThatFailsAfterAppendingLeavesNoEffect(synchronous: Bool) async throws {
        let policy = try Self.policy(synchronous: synchronous, failure: .permanent("the support log is full")) { _ in
            [.grant(balance: "coins", amount: 7), .custom(step: "audit-log", detail: "half a line")]
        }
        let (queue, store, log) = try await Self.boughtCoins(policy)

        #expect(await Self.failures(of: "t1", in: log) == ["audit-log: the support log is full"])
        #expect(await queue.pending().first?.status == .halted)
        #expect(await queue.entitlements().balance("coins") == 500, "the grant step's coins, none of the failed step's")
        #expect(try await queue.customEffects().isEmpty)
        #expect(await store.finished.isEmpty)
        await queue.stop()
    }

    @Test(arguments: [true, false])
    func aStepsRecordForAStoreIsWrittenToIt(synchronous: Bool) async throws {
        let policy = try Self.policy(synchronous: synchronous) { context in
            [.record(PersistenceRecord(strategy: .userDefaults, key: context.product.id, value: .flag))]
        }
        let recordFolder = try QueueFixtures.folder()
        let userDefaults = FileKeyValueStore(file: recordFolder.appendingPathComponent("user-defaults.json"))
        let (queue, store, log) = try await Self.boughtCoins(policy, recordStores: RecordStores(userDefaults: userDefaults))

        #expect(await Self.failures(of: "t1", in: log).isEmpty)
        let records = try await userDefaults.records()
        #expect(records.map(\.productID) == [Self.coins])
        #expect(records.map(\.transactionID) == ["t1"])
        #expect(await store.finished == ["t1"])
        await queue.stop()
    }

    @Test(arguments: [true, false])
    func withoutAStoreAStepsRecordFailsTheStep(synchronous: Bool) async throws {
        let policy = try Self.policy(synchronous: synchronous) { context in
            [.custom(step: "audit-log", detail: "logged"), .record(PersistenceRecord(strategy: .icloud, key: context.product.id, value: .flag))]
        }
        let (queue, store, log) = try await Self.boughtCoins(policy)

        let failures = await Self.failures(of: "t1", in: log)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("audit-log: \(Self.coins) keeps its record with 'icloud', but the queue has no record store for it") == true,
                "\(failures)")
        #expect(try await queue.customEffects().isEmpty, "the failed step's custom effect is dropped with it")
        #expect(await store.finished.isEmpty)
        await queue.stop()
    }

    @Test(arguments: [true, false])
    func aStepsNotificationIsToldToObservers(synchronous: Bool) async throws {
        let policy = try Self.policy(synchronous: synchronous) { _ in [.notify(.purchased)] }
        let (queue, _, log) = try await Self.boughtCoins(policy)

        let purchased = await log.notified.filter { $0.id == "t1" && $0.state == .purchased }
        #expect(purchased.count == 2, "the audit log's notification, then the notify step's")
        await queue.stop()
    }

    @Test(arguments: [true, false])
    func aStepsFinishIsDroppedOnlyTheFinishStepFinishes(synchronous: Bool) async throws {
        let policy = try Self.policy(synchronous: synchronous) { _ in [.finish, .custom(step: "audit-log", detail: "logged")] }
        var dispatcher = InMemoryDispatcher(policy: policy)
        let handle = try #require(policy.product(id: Self.coins))
        let purchase = StoreTransaction(TransactionInfo(id: "t1", productID: Self.coins, state: .purchased), purchaseDate: Date(timeIntervalSince1970: 0))

        #expect(await dispatcher.dispatch(purchase, product: handle))
        #expect(Array(dispatcher.lastEffects) == [
            .record(PersistenceRecord(strategy: .appState, key: Self.coins, value: .transaction(id: "t1", quantity: 1))),
            .grant(balance: "coins", amount: 500),
            .custom(step: "audit-log", detail: "logged"),
            .notify(.purchased),
            .finish,
        ])
        #expect(dispatcher.ledger.finished == 1)
    }
}
