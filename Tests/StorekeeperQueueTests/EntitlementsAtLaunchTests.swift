import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// An app subscribes to the entitlements as its UI appears, often before the
/// queue has started: what an earlier launch delivered, and what a crash left
/// to finish, must reach that subscriber, never an empty "locked" state that
/// nothing follows.
@Suite struct EntitlementsAtLaunchTests {
    typealias H = DeliveryHarness

    @Test func aStreamMadeBeforeStartYieldsWhatTheJournalKeptFromAnEarlierLaunch() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let kept = try H.keptProduct(in: policy)
        let world = try H.World(trace: trace)
        let coinPurchase = H.transaction("a", coins, .purchased, quantity: 2)
        let keptPurchase = H.transaction("b", kept, .purchased)
        do {
            let queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
            await world.store.send(coinPurchase)
            await world.store.send(keptPurchase)
            try await H.settle(queue, world.log) { $0.contains(.removed(coinPurchase.info)) && $0.contains(.removed(keptPurchase.info)) }
            await queue.stop()
        }

        // The next launch: the UI subscribes, then the queue starts.
        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(policy)
        let seen = H.Collector<Entitlements>()
        let stream = await queue.entitlementUpdates()
        let reader = Task { for await value in stream { await seen.append(value) } }
        try await queue.start(observers: [relaunch.log])
        try await H.eventually { await !seen.values.isEmpty }

        let loaded = await queue.entitlements()
        #expect(loaded.owns(kept.id))
        #expect(Set(kept.unlocks).isSubset(of: loaded.features))
        for grant in coins.grants { #expect(loaded.balance(grant.balance) == grant.amount * 2) }
        #expect(await seen.values.first == loaded, "the first value is what the journal kept, not an empty placeholder")
        await queue.stop()
        await reader.value
        #expect(await seen.values == [loaded])
    }

    @Test func aPurchaseACrashLeftUnfinishedReachesAStreamMadeBeforeTheNextStart() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let kept = try H.keptProduct(in: policy)
        let world = try H.World(trace: trace)
        let purchase = H.transaction("a", kept, .purchased)
        // The first launch dies while telling the store to finish: what the
        // plan delivered is committed, the store still holds the transaction.
        let gate = Gate()
        let crashed = try TransactionQueue(policy: policy, store: StoreHeldAtFinish(base: world.backend, gate: gate),
                                           configuration: world.configuration)
        try await crashed.start(observers: [world.log])
        await world.store.send(purchase)
        try await H.eventually { await gate.isHolding }
        crashed.closeJournalAsACrashWould()

        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(policy)
        let seen = H.Collector<Entitlements>()
        let stream = await queue.entitlementUpdates()
        let reader = Task { for await value in stream { await seen.append(value) } }
        try await queue.start(observers: [relaunch.log])
        try await H.settle(queue, relaunch.log) { $0.contains(.removed(purchase.info)) }

        #expect(await world.store.finished == ["a"], "the relaunch finished what the crash left")
        let recovered = await queue.entitlements()
        #expect(recovered.owns(kept.id))
        #expect(Set(kept.unlocks).isSubset(of: recovered.features))
        try await H.eventually { await seen.values.last == recovered }
        let published = await seen.values
        #expect(!published.contains(Entitlements()), "never an empty state before the recovered one: \(published)")
        await queue.stop()
        await reader.value

        // Lets the crashed launch's suspended work end (its journal is closed, so it commits nothing).
        await gate.open()
        await crashed.stop()
    }
}

/// Holds every caller until opened.
private actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var opened = false

    /// Whether a caller is held now.
    var isHolding: Bool { !waiters.isEmpty }

    func pass() async {
        guard !opened else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        opened = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

/// A store whose `finish` does not return until its gate opens: an app that
/// dies while telling the store to finish.
private struct StoreHeldAtFinish: StoreBackend {
    let base: DeliveryHarness.TracingStore
    let gate: Gate
    func connect(_ sink: StoreEventSink) async { await base.connect(sink) }
    func add(_ payment: Payment) async { await base.add(payment) }
    func finish(transactionID: String) async throws(StepFailure) {
        await gate.pass()
        try await base.finish(transactionID: transactionID)
    }
    func restoreCompletedTransactions(applicationUsername: String?) async {
        await base.restoreCompletedTransactions(applicationUsername: applicationUsername)
    }
    func receiptEntries() async -> [ReceiptEntry] { await base.receiptEntries() }
}
