import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import Testing

/// The queue's delivery guarantees, each broken on purpose: updates the
/// store reports twice or out of order, steps and the store's `finish`
/// failing for a passing reason or for good, restarts on the same journal,
/// products the catalog does not sell, payments the queue must refuse, the
/// entitlement stream, and restoring on a new device.
@Suite struct DeliveryGuaranteesTests {
    typealias H = DeliveryHarness

    // MARK: Duplicates

    @Test func theSameUpdateTwiceInOneBatchGrantsOnceAndFinishesOnce() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        // Holds the queue inside a batch, so that both copies wait in the inbox and arrive in one batch.
        let turnstile = H.Turnstile { if case .notify(let info) = $0 { info.id == "blocker" } else { false } }
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log, turnstile])
        let kept = try H.keptProduct(in: policy)
        await world.store.send(H.transaction("blocker", kept, .purchasing))
        try await H.eventually { await turnstile.holding }

        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        await world.store.send(purchase)
        await world.store.send(purchase)
        await turnstile.open()
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }

        let events = await world.log.deliveryEvents(of: "a")
        #expect(events.filter { $0 == .updated(purchase) }.count == 1)
        let ignored = try #require(events.firstIndex(of: .ignored(purchase, .duplicate)), "\(events)")
        let removed = try #require(events.firstIndex(of: .removed(purchase.info)))
        #expect(ignored < removed, "both copies were classified in the same batch, before the plan ran")
        #expect(trace.steps(of: "a") == H.plan(of: coins, .purchased, in: policy), "each step once, finish once")
        #expect(await world.store.finished == ["a"])
        try await H.expectGrantedOnce(coins, quantity: 2, transaction: "a", queue)
        await queue.stop()
    }

    @Test func theSameUpdateInTwoBatchesGrantsOnceAndFinishesAgainHarmlessly() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 3)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.ignored(purchase, .duplicate)) }

        let plan = H.plan(of: coins, .purchased, in: policy)
        #expect(trace.steps(of: "a") == plan + ["finish"], "no step ran again; only the store's finish was repeated")
        #expect(await world.store.finishCalls == 2)
        #expect(await world.store.finished == ["a"])
        #expect(await world.log.removed == ["a"])
        #expect(await world.log.notified.filter { $0.id == "a" }.count == plan.filter { $0 == "notify" }.count)
        try await H.expectGrantedOnce(coins, quantity: 3, transaction: "a", queue)
        #expect(try await queue.customEffects().count == 1, "the audit log has the purchase once")
        await queue.stop()
    }

    @Test func theSameUpdateAfterARestartGrantsNothingAgain() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        do {
            let queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
            await world.store.send(purchase)
            try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
            await queue.stop()
        }
        // A new launch: a new queue on the same journal; the store reports the transaction again.
        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(policy)
        try await queue.start(observers: [relaunch.log])
        await world.store.send(purchase)
        try await H.settle(queue, relaunch.log) { $0.contains(.ignored(purchase, .duplicate)) }

        #expect(await relaunch.log.deliveryEvents(of: "a") == [.ignored(purchase, .duplicate)])
        #expect(trace.steps(of: "a") == H.plan(of: coins, .purchased, in: policy) + ["finish"])
        try await H.expectGrantedOnce(coins, quantity: 2, transaction: "a", queue)
        #expect(try await queue.appStateRecords().count == 1)
        await queue.stop()
    }

    @Test func aTransactionWhoseFinishWasLostIsFinishedAtTheNextLaunchWithoutRunningAgain() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace, retry: H.slowRetry)   // a waiting finish is not retried in this launch
        let purchase = H.transaction("a", coins, .purchased)
        do {
            let queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
            await world.store.setFailFinishes(1)
            await world.store.send(purchase)
            try await H.eventually { await world.log.deliveryFailures(of: "a").count == 1 }
            await queue.whenIdle()
            let pending = await queue.pending()
            #expect(pending.map(\.step) == ["finish"])
            #expect(pending.map(\.status) == [.waiting])
            await queue.stop()
        }
        #expect(await world.store.unfinished.keys.sorted() == ["a"], "the store still holds it")
        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(policy)
        try await queue.start(observers: [relaunch.log])
        // The journal's leftover runs first, so the store has nothing left to deliver again.
        try await H.settle(queue, relaunch.log) { $0.contains(.removed(purchase.info)) }
        #expect(await relaunch.log.ignored.isEmpty)

        let plan = H.plan(of: coins, .purchased, in: policy)
        #expect(trace.steps(of: "a").filter { $0 != "finish" } == plan.filter { $0 != "finish" }, "no step before finish ran twice")
        #expect(await world.store.finished == ["a"])
        #expect(await queue.pending().isEmpty)
        try await H.expectGrantedOnce(coins, quantity: 1, transaction: "a", queue)
        await queue.stop()
    }

    // MARK: Out of order

    @Test func anEarlierStateAfterALaterOneIsIgnoredAsOutOfOrder() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let kept = try H.keptProduct(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])

        let purchased = H.transaction("a", kept, .purchased)
        await world.store.send(purchased)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchased.info)) }
        for state in [TransactionState.purchasing, .deferred] {
            let late = H.transaction("a", kept, state)
            await world.store.send(late)
            try await H.settle(queue, world.log) { $0.contains(.ignored(late, .outOfOrder)) }
        }
        // Deferred, then purchasing again: purchasing is out of order there too.
        let deferred = H.transaction("b", kept, .deferred)
        let purchasing = H.transaction("b", kept, .purchasing)
        await world.store.send(deferred)
        await world.store.send(purchasing)
        try await H.settle(queue, world.log) { $0.contains(.ignored(purchasing, .outOfOrder)) }

        #expect(trace.steps(of: "a") == H.plan(of: kept, .purchased, in: policy), "no purchasing or deferred plan ran after purchased")
        #expect(trace.steps(of: "b") == H.plan(of: kept, .deferred, in: policy))
        #expect(await world.log.notified.filter { $0.id == "a" }.map(\.state).allSatisfy { $0 == .purchased })
        #expect(await world.store.finished == ["a"])
        #expect(await queue.entitlements().owns(kept.id))
        await queue.stop()
    }

    @Test func statesInOrderEachRunTheirPlan() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let states = [TransactionState.purchasing, .deferred, .purchased]
        for state in states {
            let update = H.transaction("a", coins, state)
            await world.store.send(update)
            try await H.settle(queue, world.log) { $0.contains(.updated(update)) }
        }
        try await H.settle(queue, world.log) { $0.contains(.removed(H.transaction("a", coins, .purchased).info)) }
        #expect(trace.steps(of: "a") == states.flatMap { H.plan(of: coins, $0, in: policy) })
        #expect(await world.log.notified.filter { $0.id == "a" }.map(\.state) == states.flatMap { state in
            H.plan(of: coins, state, in: policy).filter { $0 == "notify" }.map { _ in state }
        })
        #expect(await world.log.ignored.isEmpty)
        await queue.stop()
    }

    @Test func aLaterStateInTheSameBatchSupersedesTheEarlierOnes() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let kept = try H.keptProduct(in: policy)
        let world = try H.World(trace: trace)
        let turnstile = H.Turnstile { if case .notify(let info) = $0 { info.id == "blocker" } else { false } }
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log, turnstile])
        await world.store.send(H.transaction("blocker", kept, .purchasing))
        try await H.eventually { await turnstile.holding }
        for state in [TransactionState.purchasing, .deferred, .purchased] {
            await world.store.send(H.transaction("a", coins, state))
        }
        await turnstile.open()
        let purchased = H.transaction("a", coins, .purchased)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchased.info)) }
        #expect(trace.steps(of: "a") == H.plan(of: coins, .purchased, in: policy), "purchasing and deferred no longer apply")
        #expect(await world.store.finished == ["a"])
        try await H.expectGrantedOnce(coins, quantity: 1, transaction: "a", queue)
        await queue.stop()
    }

    @Test func purchasedAfterFailedIsIgnoredAsConflicting() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])

        let failed = H.transaction("a", coins, .failed, error: .networkError)
        await world.store.send(failed)
        try await H.settle(queue, world.log) { $0.contains(.removed(failed.info)) }
        let purchased = H.transaction("a", coins, .purchased)
        await world.store.send(purchased)
        try await H.settle(queue, world.log) { $0.contains(.ignored(purchased, .conflicting)) }
        // And the other way round.
        let paid = H.transaction("b", coins, .purchased)
        await world.store.send(paid)
        try await H.settle(queue, world.log) { $0.contains(.removed(paid.info)) }
        let lateFailure = H.transaction("b", coins, .failed, error: .unknown)
        await world.store.send(lateFailure)
        try await H.settle(queue, world.log) { $0.contains(.ignored(lateFailure, .conflicting)) }

        #expect(trace.steps(of: "a") == H.plan(of: coins, .failed, error: .networkError, in: policy), "nothing of the purchased plan ran")
        #expect(trace.steps(of: "b") == H.plan(of: coins, .purchased, in: policy))
        #expect(await world.store.finishCalls == 2)
        #expect(try await queue.grantLedger().map(\.transactionID) == coins.grants.map { _ in "b" })
        try await H.expectGrantedOnce(coins, quantity: 1, transaction: "b", queue)
        await queue.stop()
    }

    // MARK: Steps failing

    @Test func aStepFailingForAPassingReasonLeavesTheTransactionWaitingWithAttemptsAndBackoff() async throws {
        let trace = H.Trace()
        let attempts = H.Attempts()
        let failures = 3
        let policy = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            let grant = try #require(plugins.step(named: "grant"))
            try plugins.register(H.FlakyStep(base: grant, attempts: attempts) { _, attempt in
                attempt <= failures ? .transient("the network is down") : nil
            })
        }
        let coins = try H.consumable(in: policy)
        // Retries a minute away and more: each attempt here is started by retryNow().
        let world = try H.World(trace: trace, retry: H.slowRetry)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        var before = Date()
        await world.store.send(purchase)

        for attempt in 1...failures {
            try await H.eventually { await queue.pending().first?.attempts == attempt }
            let seen = Date()
            let failures = await world.log.deliveryFailures(of: "a")
            #expect(failures.count == attempt)
            let failure = try #require(failures.last)
            #expect(failure.step == "grant")
            #expect(failure.failure == .transient("the network is down"))
            let retryAt = try #require(failure.retryAt, "a passing failure says when it runs again")
            H.expectRetryDate(retryAt, attempt: attempt, policy: H.slowRetry, failedBetween: before, and: seen)
            let pending = try #require(await queue.pending().first)
            #expect(pending.status == .waiting)
            #expect(pending.step == "grant")
            #expect(pending.attempts == attempt, "attempts grow")
            #expect(pending.retryAt == retryAt)
            #expect(pending.lastError?.contains("the network is down") == true)
            #expect(await world.store.finishCalls == 0, "not finished while a step before finish has not succeeded")
            #expect(await world.store.unfinished.keys.sorted() == ["a"])
            #expect(await queue.entitlements().balances.isEmpty)
            #expect(trace.steps(of: "a") == Array(H.plan(of: coins, .purchased, in: policy).prefix { $0 != "grant" }))
            before = Date()
            await queue.retryNow()
        }
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }

        #expect(attempts.count(of: "a") == failures + 1)
        #expect(trace.steps(of: "a") == H.plan(of: coins, .purchased, in: policy), "the steps before grant ran once; grant succeeded once")
        #expect(await world.store.finished == ["a"])
        #expect(await queue.pending().isEmpty)
        try await H.expectGrantedOnce(coins, quantity: 2, transaction: "a", queue)
        #expect(try await queue.appStateRecords().count == 1)
        await queue.stop()
    }

    @Test func aStepFailingForAPassingReasonIsRetriedByItselfWithBackoffAndFinishes() async throws {
        let trace = H.Trace()
        let attempts = H.Attempts()
        let failures = 3
        let policy = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            let grant = try #require(plugins.step(named: "grant"))
            try plugins.register(H.FlakyStep(base: grant, attempts: attempts) { _, attempt in
                attempt <= failures ? .transient("the network is down") : nil
            })
        }
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace, retry: H.quickRetry)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        let sent = Date()
        await world.store.send(purchase)
        try await H.expectBackoff(of: "a", failures: failures, step: "grant", world.log, policy: H.quickRetry, since: sent)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }

        #expect(attempts.count(of: "a") == failures + 1)
        #expect(trace.steps(of: "a") == H.plan(of: coins, .purchased, in: policy), "the steps before grant ran once; grant succeeded once")
        #expect(await world.store.finished == ["a"])
        #expect(await queue.pending().isEmpty)
        try await H.expectGrantedOnce(coins, quantity: 2, transaction: "a", queue)
        #expect(try await queue.appStateRecords().count == 1)
        #expect(try await queue.customEffects().count == 1)
        await queue.stop()
    }

    @Test func aServerThatAnswers503IsAskedAgainWithBackoffAndTheRecordIsKeptOnce() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("daily-planet", trace: trace)
        let product = try #require(policy.products.first { product in
            let plan = H.plan(of: product, .purchased, in: policy)
            return plan.first == "verify-receipt" && plan.contains("persist") && product.persistence == .server
        })
        let world = try H.World(trace: trace, retry: H.quickRetry)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        world.server.failNext(2)
        let purchase = H.transaction("a", product, .purchased)
        let sent = Date()
        await world.store.send(purchase)
        try await H.expectBackoff(of: "a", failures: 2, step: "verify-receipt", world.log, policy: H.quickRetry, since: sent)
        #expect(await world.log.deliveryFailures(of: "a").allSatisfy { $0.failure.reason.contains("503") })
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }

        let requests = world.server.requests
        #expect(requests.filter { $0.path == "/v1/receipts/verify" }.count == 3)
        #expect(requests.filter { $0.method == "PUT" }.map(\.path) == ["/v1/records/a"])
        let paths = requests.map(\.path)
        #expect(try #require(paths.lastIndex(of: "/v1/receipts/verify")) < (try #require(paths.firstIndex(of: "/v1/records/a"))),
                "nothing is persisted before the receipt is verified")
        #expect(world.server.records.keys.sorted() == ["a"])
        #expect(trace.steps(of: "a") == H.plan(of: product, .purchased, in: policy))
        #expect(await queue.entitlements() == H.delivered(product, plan: H.plan(of: product, .purchased, in: policy), quantity: 1, bought: purchase.purchaseDate))
        await queue.stop()
    }

    @Test func aStepFailingForGoodHaltsUnfinishedAndRunsAgainAtTheNextLaunch() async throws {
        let trace = H.Trace()
        let attempts = H.Attempts()
        let broken = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            let grant = try #require(plugins.step(named: "grant"))
            try plugins.register(H.FlakyStep(base: grant, attempts: attempts) { _, _ in .permanent("the ledger service refused") })
        }
        let coins = try H.consumable(in: broken)
        let world = try H.World(trace: trace)
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        do {
            let queue = try world.queue(broken)
            try await queue.start(observers: [world.log])
            await world.store.send(purchase)
            try await H.settle(queue, world.log) { !$0.isEmpty && H.hasFailure($0, of: "a") }
            try await Task.sleep(for: .milliseconds(100))
            await queue.whenIdle()

            let failures = await world.log.deliveryFailures(of: "a")
            #expect(failures.count == 1, "a permanent failure is not retried in the same launch")
            #expect(failures.first?.step == "grant")
            #expect(failures.first?.retryAt == nil)
            #expect(failures.first?.failure.isTransient == false)
            #expect(attempts.count(of: "a") == 1)
            let pending = try #require(await queue.pending().first)
            #expect(pending.status == .halted)
            #expect(pending.step == "grant")
            #expect(pending.retryAt == nil)
            #expect(pending.lastError?.contains("the ledger service refused") == true, "pending() says why: \(pending.lastError ?? "nil")")
            #expect(await world.store.finishCalls == 0)
            #expect(await world.store.unfinished.keys.sorted() == ["a"])
            #expect(await queue.entitlements().balances.isEmpty)
            await queue.stop()
        }
        // The next launch has an app whose step works.
        let fixedTrace = H.Trace()
        let fixed = try H.tracedPolicy("rocket-racer", trace: fixedTrace)
        let relaunch = try H.World(trace: fixedTrace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(fixed)
        try await queue.start(observers: [relaunch.log])
        try await H.settle(queue, relaunch.log) { $0.contains(.removed(purchase.info)) }

        let plan = H.plan(of: coins, .purchased, in: fixed)
        let resumed = Array(plan[try #require(plan.firstIndex(of: "grant"))...])
        #expect(fixedTrace.steps(of: "a").filter { $0 != "finish" } == resumed.filter { $0 != "finish" }, "resumed at grant; persist did not run again")
        #expect(trace.steps(of: "a") == Array(plan.prefix { $0 != "grant" }))
        #expect(await world.store.finished == ["a"])
        #expect(await queue.pending().isEmpty)
        try await H.expectGrantedOnce(coins, quantity: 2, transaction: "a", queue)
        #expect(try await queue.appStateRecords().count == 1)
        await queue.stop()
    }

    @Test func retryNowRunsAHaltedStepAgain() async throws {
        let trace = H.Trace()
        let attempts = H.Attempts()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            let grant = try #require(plugins.step(named: "grant"))
            try plugins.register(H.FlakyStep(base: grant, attempts: attempts) { _, attempt in
                attempt == 1 ? .permanent("refused once") : nil
            })
        }
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased)
        await world.store.send(purchase)
        try await H.eventually { await queue.pending().first?.status == .halted }
        await queue.retryNow()
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        #expect(attempts.count(of: "a") == 2)
        try await H.expectGrantedOnce(coins, quantity: 1, transaction: "a", queue)
        await queue.stop()
    }

    @Test func theStoresFinishFailingIsRetriedAloneAndNoEffectRepeats() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace, retry: H.quickRetry)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let failures = 3
        await world.store.setFailFinishes(failures)
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        let sent = Date()
        await world.store.send(purchase)
        try await H.expectBackoff(of: "a", failures: failures, step: "finish", world.log, policy: H.quickRetry, since: sent)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }

        let plan = H.plan(of: coins, .purchased, in: policy)
        #expect(trace.steps(of: "a") == plan, "every step once; finish succeeded once")
        #expect(await world.store.finishCalls == failures + 1)
        #expect(await world.store.finished == ["a"])
        #expect(await world.log.removed == ["a"])
        #expect(await world.log.notified.filter { $0.id == "a" }.count == plan.filter { $0 == "notify" }.count)
        try await H.expectGrantedOnce(coins, quantity: 2, transaction: "a", queue)
        #expect(try await queue.customEffects().count == 1)
        #expect(try await queue.appStateRecords().count == 1)
        await queue.stop()
    }

    @Test(arguments: [true, false])
    func aFailedTransactionIsFinishedEvenWhenAStepOfItsPlanFails(transient: Bool) async throws {
        let trace = H.Trace()
        let attempts = H.Attempts()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            let present = try #require(plugins.step(named: "present-error"))
            try plugins.register(H.FlakyStep(base: present, attempts: attempts) { _, _ in
                transient ? .transient("the screen is busy") : .permanent("no window to show it in")
            })
        }
        let coins = try H.consumable(in: policy)
        let error = try #require(StoreErrorCode.allCases.first { H.plan(of: coins, .failed, error: $0, in: policy).contains("present-error") })
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let failed = H.transaction("a", coins, .failed, error: error)
        await world.store.send(failed)
        try await H.settle(queue, world.log) { $0.contains(.removed(failed.info)) }

        let failures = await world.log.deliveryFailures(of: "a")
        #expect(failures.map(\.step) == ["present-error"])
        #expect(failures.first?.retryAt == nil, "a failed transaction does not wait for its steps")
        #expect(attempts.count(of: "a") == 1)
        #expect(await world.store.finished == ["a"])
        #expect(await world.store.unfinished.isEmpty)
        #expect(await queue.pending().isEmpty)
        #expect(await queue.entitlements() == Entitlements())
        await queue.stop()
    }

    // MARK: Restarts

    @Test func whatTheJournalLeftUnfinishedRunsAtStartBeforeAnythingNew() async throws {
        let trace = H.Trace()
        let attempts = H.Attempts()
        // "halted" fails for good, "waiting" for a passing reason (retried a minute later: not in this launch).
        let broken = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            let grant = try #require(plugins.step(named: "grant"))
            try plugins.register(H.FlakyStep(base: grant, attempts: attempts) { id, _ in
                id == "halted" ? .permanent("refused") : .transient("offline")
            })
        }
        let coins = try H.consumable(in: broken)
        let world = try H.World(trace: trace, retry: H.slowRetry)
        let halted = H.transaction("halted", coins, .purchased)
        let waiting = H.transaction("waiting", coins, .purchased, quantity: 2)
        do {
            let queue = try world.queue(broken)
            try await queue.start(observers: [world.log])
            await world.store.send(halted)
            await world.store.send(waiting)
            try await H.eventually {
                let pending = await queue.pending()
                return Set(pending.map(\.status)) == [.halted, .waiting]
            }
            await queue.stop()
        }
        // The next launch talks to a store that does not deliver those two
        // again (only the journal remembers them) and holds a new purchase.
        let fixedTrace = H.Trace()
        let fixed = try H.tracedPolicy("rocket-racer", trace: fixedTrace)
        let store = ScriptedStore()
        let fresh = H.transaction("new", coins, .purchased)
        await store.send(fresh)
        let relaunch = try H.World(trace: fixedTrace, store: store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(fixed)
        try await queue.start(observers: [relaunch.log])
        try await queue.add(Payment(productID: coins.id))
        try await H.settle(queue, relaunch.log) {
            $0.contains(.removed(halted.info)) && $0.contains(.removed(waiting.info)) && $0.contains(.removed(fresh.info))
                && $0.contains { if case .removed(let info) = $0 { info.id == "t1" } else { false } }
        }

        // Each step of the replayed transactions ran before the same step of any new one, and they were finished first.
        let order = fixedTrace.all.map { entry in entry.split(separator: " ").map(String.init) }
        for step in Set(order.map { $0[1] }) {
            let runs = order.filter { $0[1] == step }.map { $0[0] }
            let lastReplayed = runs.lastIndex { $0 == "halted" || $0 == "waiting" }
            let firstNew = runs.firstIndex { $0 == "new" || $0 == "t1" }
            if let lastReplayed, let firstNew {
                #expect(lastReplayed < firstNew, "\(step): \(fixedTrace.all)")
            }
        }
        // And the replayed ones ran to their end before anything new started.
        let lastReplayedStep = order.lastIndex { $0[0] == "halted" || $0[0] == "waiting" }
        let firstNewStep = order.firstIndex { $0[0] == "new" || $0[0] == "t1" }
        #expect(lastReplayedStep.map { last in firstNewStep.map { last < $0 } ?? false } == true, "\(fixedTrace.all)")
        let removed = await relaunch.log.removed
        #expect(removed.prefix(2).sorted() == ["halted", "waiting"], "\(removed)")
        #expect(order.first?[0] == "halted", "the journal's order is kept: \(fixedTrace.all)")
        // The journal kept the replayed transactions' order, and no step ran twice.
        let resumed = Array(H.plan(of: coins, .purchased, in: fixed).drop { $0 != "grant" })
        #expect(fixedTrace.steps(of: "halted") == resumed)
        #expect(fixedTrace.steps(of: "waiting") == resumed)
        let grants = try await queue.grantLedger()
        #expect(Set(grants.map(\.transactionID)) == ["halted", "waiting", "new", "t1"])
        #expect(grants.count == 4 * coins.grants.count)
        #expect(await queue.pending().isEmpty)
        await queue.stop()
    }

    // MARK: Products not in the catalog

    @Test func aTransactionForAProductNotInTheCatalogIsKeptUnfinishedNeverLost() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let world = try H.World(trace: trace)
        let retired = ProductPolicy(id: "com.example.rocketracer.retired.hovercraft", type: .nonConsumable, delivery: .builtIn,
                                    persistence: .receipt, restore: .receiptRefresh)
        #expect(policy.product(id: retired.id) == nil)
        let paid = H.transaction("paid", retired, .purchased)
        let failed = H.transaction("failed", retired, .failed, error: .unknown)
        let purchasing = H.transaction("purchasing", retired, .purchasing)
        do {
            let queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
            for transaction in [paid, failed, purchasing] { await world.store.send(transaction) }
            try await H.settle(queue, world.log) { $0.contains(.removed(failed.info)) && H.hasFailure($0, of: "paid") }

            let failure = try #require(await world.log.deliveryFailures(of: "paid").first)
            #expect(failure.retryAt == nil)
            #expect(failure.failure.reason.contains("not in the catalog"))
            let pending = await queue.pending()
            #expect(pending.map(\.transaction.id) == ["paid"])
            #expect(pending.first?.status == .halted)
            #expect(pending.first?.lastError?.contains(retired.id) == true)
            #expect(await world.store.finished == ["failed"], "a failed transaction is finished whatever its product")
            #expect(await queue.entitlements() == Entitlements())
            await queue.stop()
        }
        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(policy)
        try await queue.start(observers: [relaunch.log])
        try await H.settle(queue, relaunch.log) { H.hasFailure($0, of: "paid") }
        #expect(await queue.pending().map(\.transaction.id) == ["paid"], "still there after a restart")
        #expect(await world.store.unfinished.keys.sorted() == ["paid"], "never finished")
        #expect(await world.store.finished == ["failed"])
        await queue.stop()
    }

    @Test func aPurchaseOfAProductAnOlderVersionDidNotSellIsDeliveredInFullByTheVersionThatSellsIt() async throws {
        let trace = H.Trace()
        let current = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: current)
        // The version before: the same catalog without this product (it was added since).
        let older = try QueueFixtures.policy(try H.catalogText("rocket-racer", without: coins.id))
        #expect(older.product(id: coins.id) == nil)
        #expect(older.products.count == current.products.count - 1)
        let world = try H.World(trace: trace)
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        do {
            let queue = try world.queue(older)
            try await queue.start(observers: [world.log])
            await world.store.send(purchase)
            try await H.settle(queue, world.log) { H.hasFailure($0, of: "a") }
            #expect(await queue.pending().first?.status == .halted)
            await queue.stop()
        }
        // The update that sells it: the purchase is delivered as its plan says, then finished.
        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(current)
        try await queue.start(observers: [relaunch.log])
        try await H.settle(queue, relaunch.log) { $0.contains(.removed(purchase.info)) || H.hasFailure($0, of: "a") }

        let plan = H.plan(of: coins, .purchased, in: current)
        #expect(trace.steps(of: "a") == plan, "the product's plan ran, not a stand-in")
        try await H.expectGrantedOnce(coins, quantity: 2, transaction: "a", queue)
        for grant in coins.grants {
            #expect(await queue.entitlements().balance(grant.balance) == grant.amount * 2, "the coins the user paid for")
        }
        #expect(try await queue.appStateRecords().map(\.transactionID) == (plan.contains("persist") ? ["a"] : []))
        await queue.stop()
    }

    // MARK: Payments

    @Test func addRefusesBeforeStartUnknownProductsAndQuantitiesOutOfRange() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        let coins = try H.consumable(in: policy)
        await #expect(throws: PaymentError.notStarted) { try await queue.add(Payment(productID: coins.id)) }

        try await queue.start(observers: [world.log])
        let kept = try H.keptProduct(in: policy)
        let misspelt = String(kept.id.dropLast()) + (kept.id.last == "z" ? "y" : "z")
        await #expect(throws: PaymentError.unknownProduct(misspelt, suggestion: kept.id)) { try await queue.add(Payment(productID: misspelt)) }
        await #expect(throws: PaymentError.unknownProduct("nothing-like-it", suggestion: nil)) {
            try await queue.add(Payment(productID: "nothing-like-it"))
        }
        for product in policy.products {
            for quantity in [0, -1, product.maxQuantity + 1] {
                await #expect(throws: PaymentError.quantityOutOfRange(product: product.id, quantity: quantity, maximum: product.maxQuantity)) {
                    try await queue.add(Payment(productID: product.id, quantity: quantity))
                }
            }
        }
        await queue.whenIdle()
        #expect(await world.log.events.isEmpty, "nothing reached the store")
        #expect(await world.store.unfinished.isEmpty)

        try await queue.add(Payment(productID: coins.id, quantity: coins.maxQuantity))
        try await H.settle(queue, world.log) { $0.contains { if case .removed = $0 { true } else { false } } }
        for grant in coins.grants {
            #expect(await queue.entitlements().balance(grant.balance) == grant.amount * coins.maxQuantity)
        }
        await queue.stop()
    }

    // MARK: Entitlements

    @Test func theEntitlementStreamYieldsTheCurrentValueThenEachChange() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let kept = try H.keptProduct(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let seen = H.Collector<Entitlements>()
        let stream = await queue.entitlementUpdates()
        let reader = Task { for await value in stream { await seen.append(value) } }
        try await H.eventually { await seen.values.count == 1 }
        #expect(await seen.values == [Entitlements()])

        let coinPurchase = H.transaction("a", coins, .purchased, quantity: 2)
        await world.store.send(coinPurchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(coinPurchase.info)) }
        try await H.eventually { await seen.values.count == 2 }
        let afterCoins = await queue.entitlements()
        let keptPurchase = H.transaction("b", kept, .purchased)
        await world.store.send(keptPurchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(keptPurchase.info)) }
        try await H.eventually { await seen.values.count == 3 }
        let afterKept = await queue.entitlements()
        // A duplicate changes nothing, so nothing is published.
        await world.store.send(coinPurchase)
        try await H.settle(queue, world.log) { $0.contains(.ignored(coinPurchase, .duplicate)) }

        // A later subscriber starts with the value now.
        let late = await queue.entitlementUpdates()
        var lateIterator = late.makeAsyncIterator()
        #expect(await lateIterator.next() == afterKept)

        await queue.stop()
        await reader.value   // the stream ends when the queue stops
        #expect(await seen.values == [Entitlements(), afterCoins, afterKept])
        for grant in coins.grants { #expect(afterCoins.balance(grant.balance) == grant.amount * 2) }
        #expect(afterKept.owns(kept.id))
        #expect(afterKept.balances == afterCoins.balances)
        #expect(Set(kept.unlocks).isSubset(of: afterKept.features))
    }

    @Test func theEntitlementStreamTellsWhenASubscriptionRunsOut() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let subscription = try #require(policy.products.first { product in
            product.type == .autoRenewableSubscription && !product.unlocks.isEmpty && H.plan(of: product, .purchased, in: policy).contains("unlock")
        })
        // A clock that moves only when the test says (delivery may take seconds on a busy
        // machine: the subscription must not run out before it is delivered), and a
        // subscription the store says ends a second after it was bought. The queue's timer
        // sleeps for real, and checks again if it wakes before the clock has moved.
        let clock = H.ManualClock(Date())
        let start = clock.now
        let world = try H.World(trace: trace, now: { clock.now })
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let seen = H.Collector<Entitlements>()
        let stream = await queue.entitlementUpdates()
        let reader = Task { for await value in stream { await seen.append(value) } }
        let end = start.addingTimeInterval(1)
        let purchase = StoreTransaction(H.transaction("a", subscription, .purchased).info, purchaseDate: start, expirationDate: end)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        try await H.eventually { await seen.values.last?.owns(subscription.id) == true }
        #expect(await seen.values.last?.activeSubscriptions == [ActiveSubscription(productID: subscription.id, expirationDate: end)])

        clock.now = end.addingTimeInterval(0.001)
        #expect(!(await queue.entitlements().owns(subscription.id)), "the subscription ran out")
        // The stream's last value must not go on saying the user has it: the timer set for
        // the end publishes again, with nothing else happening. The timer sleeps for real (a
        // second, again each time it wakes before the clock moved): 60 s, not 10, because a
        // fresh-clone run of every suite at once on a 2-core machine once kept it from its
        // turn for more than 10 (the test takes a second alone).
        try await H.eventually(timeout: .seconds(60)) { await seen.values.last?.owns(subscription.id) == false }
        await queue.stop()
        await reader.value
    }

    // MARK: Restoring

    @Test func restoringOnANewDeviceBringsBackWhatWasBoughtAndReportsTheEnd() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let store = ScriptedStore()   // the user's account: the same on both devices
        let server = ServerContractTestDouble()
        let iCloud = try QueueFixtures.folder().appendingPathComponent("icloud", isDirectory: true)
        let phone = try H.World(trace: trace, store: store, server: server, iCloudFolder: iCloud, device: "phone")
        let bought = policy.products.filter { $0.type != .consumable }
        let coins = try H.consumable(in: policy)
        do {
            let queue = try phone.queue(policy)
            try await queue.start(observers: [phone.log])
            for product in bought { try await queue.add(Payment(productID: product.id)) }
            try await queue.add(Payment(productID: coins.id))
            try await H.settle(queue, phone.log) { $0.filter { if case .removed = $0 { true } else { false } }.count == bought.count + 1 }
            await queue.stop()
        }
        let originals = await store.finished

        let tablet = try H.World(trace: trace, store: store, server: server, iCloudFolder: iCloud, device: "tablet")
        let queue = try tablet.queue(policy)
        try await queue.start(observers: [tablet.log])
        await queue.restoreCompletedTransactions()
        try await H.settle(queue, tablet.log) { $0.contains(.restoreFinished) }

        let events = await tablet.log.events
        let restored = events.compactMap { if case .updated(let transaction) = $0 { transaction } else { nil } }
        #expect(restored.count == originals.count, "every completed transaction came back")
        #expect(restored.allSatisfy { $0.info.state == .restored && $0.originalID != nil && !originals.contains($0.id) })
        let end = try #require(events.firstIndex(of: .restoreFinished))
        let lastRemoved = try #require(events.lastIndex { if case .removed = $0 { true } else { false } })
        #expect(lastRemoved < end, "restoreFinished comes after every restored transaction was handled")
        #expect(await store.unfinished.isEmpty, "every restored transaction was finished")
        for transaction in restored {
            let product = try #require(policy.product(id: transaction.info.productID).map { policy.product($0) })
            #expect(trace.steps(of: transaction.id) == H.plan(of: product, .restored, in: policy), "\(product.id)")
        }

        // Everything kept comes back, through its record or its restored plan; coins do not.
        let now = await queue.entitlements()
        #expect(now.ownedProducts == Set(bought.map(\.id)))
        #expect(now.features == Set(bought.flatMap(\.unlocks)))
        #expect(now.balances.isEmpty, "consumables are not restored")
        #expect(Set(now.activeSubscriptions.map(\.productID)) == Set(bought.filter(H.isSubscription).map(\.id)))
        // Content a restored plan downloads is downloaded again on the new device.
        let redownloaded = bought.filter { H.plan(of: $0, .restored, in: policy).contains("download") }.map(\.id)
        #expect(try await queue.contentLocations().keys.sorted() == redownloaded.sorted())
        await queue.stop()

        // What the restored plans delivered is in the tablet's own journal,
        // even with no receipt and no records to read.
        let bare = try TransactionQueue(policy: policy, store: ScriptedStore(),
                                        configuration: QueueFixtures.configuration(tablet.folder))
        try await bare.start()
        let journalled = bought.filter { H.plan(of: $0, .restored, in: policy).contains("unlock") }.map(\.id)
        #expect(!journalled.isEmpty)
        #expect(await bare.entitlements().ownedProducts == Set(journalled))
        await bare.stop()
    }

    // MARK: whenIdle

    @Test func whenIdleReturnsOnlyAfterWhatWasSentIsHandled() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        var early: [Int] = []
        for round in 1...200 {
            await world.store.send(H.transaction("r\(round)", coins, .purchased))
            await queue.whenIdle()
            if await world.store.finished.count != round { early.append(round) }
            try await H.eventually { await world.store.finished.count == round }
        }
        #expect(early.isEmpty, "whenIdle() returned before the update sent just before it was handled, in rounds \(early)")
        await queue.stop()
    }
}

// MARK: - Helpers for these tests

extension DeliveryHarness {
    /// Retries a minute away and more: not within a test, unless `retryNow()`.
    static let slowRetry = RetryPolicy(initialDelay: .seconds(60), multiplier: 2, maximumDelay: .seconds(600), jitter: 0)
    /// Retries within a test, far enough apart to tell one wait from the next.
    static let quickRetry = RetryPolicy(initialDelay: .milliseconds(20), multiplier: 2, maximumDelay: .milliseconds(200), jitter: 0)

    /// Checks that a retry date is the failure's time plus the policy's
    /// delay for that attempt, the failure having happened between two times.
    static func expectRetryDate(_ retryAt: Date, attempt: Int, policy: RetryPolicy, failedBetween earliest: Date, and latest: Date,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let failedAt = retryAt.addingTimeInterval(-policy.delay(afterFailures: attempt))
        #expect(failedAt.timeIntervalSince(earliest) >= -1e-6 && latest.timeIntervalSince(failedAt) >= -1e-6,
                "attempt \(attempt): retry at \(retryAt.timeIntervalSince(earliest))s after the earliest failure time, the policy's delay is \(policy.delay(afterFailures: attempt))s",
                sourceLocation: sourceLocation)
    }

    /// Watches a transaction's step fail `failures` times for a passing
    /// reason and be retried by the queue itself: each attempt runs no
    /// earlier than the previous retry date, and each retry date is the
    /// failure's time plus the policy's delay for that attempt.
    static func expectBackoff(of transactionID: String, failures: Int, step: String, _ log: EventLog, policy: RetryPolicy, since sent: Date,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var earliest = sent
        for attempt in 1...failures {
            try await eventually(sourceLocation: sourceLocation) { await log.deliveryFailures(of: transactionID).count >= attempt }
            let seen = Date()
            // Read with a bound: after a wait that timed out (recorded above), indexing would crash every test.
            let seenFailures = await log.deliveryFailures(of: transactionID)
            let failure = try #require(seenFailures.count >= attempt ? seenFailures[attempt - 1] : nil,
                                       "failure \(attempt) of \(transactionID) never came", sourceLocation: sourceLocation)
            #expect(failure.step == step, sourceLocation: sourceLocation)
            #expect(failure.failure.isTransient, sourceLocation: sourceLocation)
            let retryAt = try #require(failure.retryAt, sourceLocation: sourceLocation)
            expectRetryDate(retryAt, attempt: attempt, policy: policy, failedBetween: earliest, and: seen, sourceLocation: sourceLocation)
            earliest = retryAt
        }
    }

    /// Attempts per transaction.
    final class Attempts: @unchecked Sendable {
        // @unchecked: `counts` is read and written only under `lock`.
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        func next(_ transactionID: String) -> Int {
            lock.withLock {
                counts[transactionID, default: 0] += 1
                return counts[transactionID] ?? 0
            }
        }
        func count(of transactionID: String) -> Int { lock.withLock { counts[transactionID] ?? 0 } }
    }

    /// A step that fails when `failure` says (given the transaction and the
    /// attempt, from 1), and otherwise runs `base`.
    struct FlakyStep: StepPlugin {
        let base: any StepPlugin
        let attempts: Attempts
        let failure: @Sendable (_ transactionID: String, _ attempt: Int) -> StepFailure?
        var name: String { base.name }
        func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
            if let failure = failure(context.transaction.id, attempts.next(context.transaction.id)) { throw failure }
            try await base.run(context, into: &effects)
        }
    }

    /// An observer that holds the queue at the first event `holdAt` picks, until opened.
    actor Turnstile: TransactionObserver {
        private let holdAt: @Sendable (QueueEvent) -> Bool
        private var waiter: CheckedContinuation<Void, Never>?
        private var opened = false
        private(set) var holding = false

        init(holdAt: @escaping @Sendable (QueueEvent) -> Bool) { self.holdAt = holdAt }

        func queue(_ event: QueueEvent) async {
            guard !opened, holdAt(event) else { return }
            holding = true
            await withCheckedContinuation { waiter = $0 }
            holding = false
        }

        func open() {
            opened = true
            waiter?.resume()
            waiter = nil
        }
    }

    /// Values, in the order they arrived.
    /// A clock that stands still until the test moves it.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var current: Date
        init(_ start: Date) { current = start }
        var now: Date {
            get { lock.lock(); defer { lock.unlock() }; return current }
            set { lock.lock(); current = newValue; lock.unlock() }
        }
    }

    actor Collector<Value: Sendable> {
        private(set) var values: [Value] = []
        func append(_ value: Value) { values.append(value) }
    }

    /// A catalog's text without one of its products (as an older version of the app had it).
    static func catalogText(_ catalog: String, without productID: String) throws -> String {
        let text = try String(contentsOfFile: "\(QueueFixtures.packageRoot)/Catalogs/\(catalog)/catalog.yaml", encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "  - id: \(productID)"))
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("  - id: ") || (!$0.hasPrefix(" ") && !$0.isEmpty && !$0.hasPrefix("#")) } ?? lines.endIndex
        lines.removeSubrange(start..<end)
        return lines.joined(separator: "\n")
    }

    /// A transaction as the store reports it, bought at the scripted store's clock.
    static func transaction(_ id: String, _ product: ProductPolicy, _ state: TransactionState, error: StoreErrorCode? = nil,
                            quantity: Int = 1) -> StoreTransaction {
        StoreTransaction(TransactionInfo(id: id, productID: product.id, state: state, error: error, quantity: quantity,
                                         receipt: Array("receipt of \(id)".utf8)),
                         purchaseDate: Date(timeIntervalSince1970: 1_800_000_000))
    }

    static func plan(of product: ProductPolicy, _ state: TransactionState, error: StoreErrorCode? = nil, in policy: CompiledPolicy) -> [String] {
        policy.plan(for: TransactionInfo(id: "-", productID: product.id, state: state, error: error))?.stepNames ?? []
    }

    /// The first consumable whose purchase grants a balance and finishes.
    static func consumable(in policy: CompiledPolicy) throws -> ProductPolicy {
        try #require(policy.products.first { product in
            let plan = plan(of: product, .purchased, in: policy)
            return product.type == .consumable && !product.grants.isEmpty && plan.contains("grant") && plan.last == "finish"
                && product.maxQuantity > 1 && product.persistence == .appState
        })
    }

    /// The first non-consumable kept in the receipt, with features, whose purchase unlocks.
    static func keptProduct(in policy: CompiledPolicy) throws -> ProductPolicy {
        try #require(policy.products.first { product in
            product.type == .nonConsumable && product.persistence == .receipt && !product.unlocks.isEmpty && product.content == nil
                && plan(of: product, .purchased, in: policy).contains("unlock")
        })
    }

    static func hasFailure(_ events: [QueueEvent], of transactionID: String) -> Bool {
        events.contains { if case .stepFailed(let info, _, _, _) = $0 { info.id == transactionID } else { false } }
    }

    /// The product's grants are in the ledger once for the transaction, and the balances add up.
    static func expectGrantedOnce(_ product: ProductPolicy, quantity: Int, transaction: String, _ queue: TransactionQueue,
                                  sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let rows = try await queue.grantLedger().filter { $0.transactionID == transaction }
        #expect(rows.map { "\($0.balance) \($0.amount)" }.sorted() == product.grants.map { "\($0.balance) \($0.amount * quantity)" }.sorted(),
                sourceLocation: sourceLocation)
        let all = try await queue.grantLedger()
        let entitlements = await queue.entitlements()
        for grant in product.grants {
            let total = all.filter { $0.balance == grant.balance }.reduce(0) { $0 + $1.amount }
            #expect(entitlements.balance(grant.balance) == total, "the balance is the sum of its ledger", sourceLocation: sourceLocation)
        }
    }
}
