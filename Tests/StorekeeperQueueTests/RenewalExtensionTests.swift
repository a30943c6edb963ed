import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// A subscription's renewal date extended by the developer: the App Store extends the current period's
/// `expiresDate` ("Extends the renewal date of a customer's active subscription",
/// https://developer.apple.com/documentation/appstoreserverapi/extend-a-subscription-renewal-date) and signs
/// the period's transaction again with it, which StoreKit 2 delivers through `Transaction.updates`
/// ("transactions that occur outside the app", https://developer.apple.com/documentation/storekit/transaction/updates).
/// The device must own the subscription until the new end: found by the device-and-server random lives,
/// where the device stopped at the old end while the server and the App Store model went on.
@Suite struct RenewalExtensionTests {
    typealias H = DeliveryHarness

    @Test func aLaterVersionOfADeliveredSubscriptionTransactionMovesItsEndAndSurvivesARelaunch() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let subscription = try #require(policy.products.first { product in
            product.type == .autoRenewableSubscription && !product.unlocks.isEmpty && H.plan(of: product, .purchased, in: policy).contains("unlock")
        })
        let (clock, world, queue) = try await Self.started(policy, trace: trace)
        let start = clock.now, end = clock.now.addingTimeInterval(30 * 86_400)
        let purchase = StoreTransaction(H.transaction("a", subscription, .purchased).info, purchaseDate: start, expirationDate: end)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        #expect(await queue.entitlements().activeSubscriptions == [ActiveSubscription(productID: subscription.id, expirationDate: end)])

        // The renewal date extended by 20 days: the same transaction, signed again with the later end.
        let extended = end.addingTimeInterval(20 * 86_400)
        let again = StoreTransaction(purchase.info, purchaseDate: start, expirationDate: extended)
        await world.store.send(again)
        try await H.settle(queue, world.log) { $0.contains(.ignored(again, .duplicate)) }
        #expect(await queue.entitlements().activeSubscriptions == [ActiveSubscription(productID: subscription.id, expirationDate: extended)])
        #expect(trace.steps(of: "a").filter { $0 != "finish" } == H.plan(of: subscription, .purchased, in: policy).filter { $0 != "finish" },
                "the plan ran once: the new version only moves the end")

        // An older version arriving late (an end before the extension) changes nothing.
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.filter { $0 == .ignored(purchase, .duplicate) }.count >= 1 }
        clock.now = end.addingTimeInterval(86_400)
        let past = await queue.entitlements()
        #expect(past.owns(subscription.id), "a day past the old end, within the extension")
        #expect(Set(subscription.unlocks).isSubset(of: past.features))
        await queue.stop()

        // The journal keeps the new end.
        let relaunched = try world.queue(policy)
        try await relaunched.start()
        #expect(await relaunched.entitlements().owns(subscription.id))
        clock.now = extended.addingTimeInterval(1)
        #expect(!(await relaunched.entitlements().owns(subscription.id)), "the extended period ends too")
        await relaunched.stop()
    }

    /// Only a transaction that delivered the product can move its end: a restore whose plan owns nothing (a
    /// product the receipt keeps, restored by finishing it) delivered twice with a later end than the owner's
    /// leaves the owner's end as it is. Found by the StoreKit 1 device lives (seed 1025: the restore of a
    /// superseded period whose renewal date had been extended became the product's owner).
    @Test func aTransactionThatDeliveredNothingMovesNoEnd() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let subscription = try #require(policy.products.first { product in
            product.type == .autoRenewableSubscription && H.plan(of: product, .purchased, in: policy).contains("unlock")
                && !H.plan(of: product, .restored, in: policy).contains("unlock")
        }, "a subscription whose restored plan owns nothing (kept by the receipt)")
        let (clock, world, queue) = try await Self.started(policy, trace: trace)
        let start = clock.now, end = clock.now.addingTimeInterval(30 * 86_400)
        let purchase = StoreTransaction(H.transaction("a", subscription, .purchased).info, originalID: "a", purchaseDate: start, expirationDate: end)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }

        let restore = StoreTransaction(H.transaction("r", subscription, .restored).info, originalID: "a", purchaseDate: start,
                                       expirationDate: end.addingTimeInterval(20 * 86_400))
        await world.store.send(restore)
        try await H.settle(queue, world.log) { $0.contains(.removed(restore.info)) }
        await world.store.send(restore)
        try await H.settle(queue, world.log) { $0.contains(.ignored(restore, .duplicate)) }
        #expect(await queue.entitlements().activeSubscriptions == [ActiveSubscription(productID: subscription.id, expirationDate: end)])
        await queue.stop()
        let relaunched = try world.queue(policy)
        try await relaunched.start()
        #expect(await relaunched.entitlements().activeSubscriptions == [ActiveSubscription(productID: subscription.id, expirationDate: end)])
        await relaunched.stop()
    }

    /// The App Store reverses a refund by signing the transaction again without `revocationDate`
    /// (REFUND_REVERSED, https://developer.apple.com/documentation/appstoreservernotifications/notificationtype):
    /// that version carries the period's end as it stands, extended included. The queue reopens the plan
    /// with the version it journalled first; the end must still be the new version's (found by the lives:
    /// seed 300090 on PostgreSQL, an extension, a prorated refund, its reversal).
    @Test func aRefundReversedAfterAnExtensionGivesBackTheExtendedEnd() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let subscription = try #require(policy.products.first { product in
            product.type == .autoRenewableSubscription && !product.unlocks.isEmpty && H.plan(of: product, .purchased, in: policy).contains("unlock")
        })
        let (clock, world, queue) = try await Self.started(policy, trace: trace)
        let start = clock.now, end = clock.now.addingTimeInterval(30 * 86_400)
        let purchase = StoreTransaction(H.transaction("a", subscription, .purchased).info, purchaseDate: start, expirationDate: end)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        let extended = end.addingTimeInterval(20 * 86_400)
        let again = StoreTransaction(purchase.info, purchaseDate: start, expirationDate: extended)
        await world.store.send(again)
        try await H.settle(queue, world.log) { $0.contains(.ignored(again, .duplicate)) }

        let refunded = start.addingTimeInterval(86_400)
        await world.store.send(.revoked(StoreRevocation(productID: subscription.id, transactionIDs: ["a"], reason: .refund, date: refunded)))
        try await H.eventually { !(await queue.entitlements().owns(subscription.id)) }

        await world.store.send(.reinstated(StoreReinstatement(productID: subscription.id, transactionIDs: ["a"],
                                                              signedDate: refunded.addingTimeInterval(3_600))))
        await world.store.send(again)
        try await H.eventually {
            await queue.whenIdle()
            return await queue.entitlements().owns(subscription.id)
        }
        #expect(await queue.entitlements().activeSubscriptions == [ActiveSubscription(productID: subscription.id, expirationDate: extended)])
        clock.now = end.addingTimeInterval(86_400)
        #expect(await queue.entitlements().owns(subscription.id), "a day past the old end, within the extension")
        await queue.stop()
    }

    /// The extension can arrive while the purchase's plan still waits (its step failed for a passing
    /// reason: the network was down); the plan then owns with the version it was given, and the later end
    /// must count once it has (found by the lives: seed 2377, the server down when the purchase was made).
    @Test func anExtensionThatArrivesWhileThePlanWaitsCountsOnceThePlanOwns() async throws {
        let trace = H.Trace()
        let failures = FlakyStep.Failures(1)
        let policy = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            guard let unlock = plugins.step(named: "unlock") else { return }
            try plugins.register(FlakyStep(base: unlock, failures: failures))
        }
        let subscription = try #require(policy.products.first { product in
            product.type == .autoRenewableSubscription && !product.unlocks.isEmpty && H.plan(of: product, .purchased, in: policy).contains("unlock")
        })
        let (clock, world, queue) = try await Self.started(policy, trace: trace, retry: RetryPolicy(initialDelay: .seconds(3_600)))
        let start = clock.now, end = clock.now.addingTimeInterval(30 * 86_400)
        let purchase = StoreTransaction(H.transaction("a", subscription, .purchased).info, purchaseDate: start, expirationDate: end)
        await world.store.send(purchase)
        try await H.eventually { await queue.pending().first?.status == .waiting }

        let extended = end.addingTimeInterval(20 * 86_400)
        let again = StoreTransaction(purchase.info, purchaseDate: start, expirationDate: extended)
        await world.store.send(again)
        try await H.settle(queue, world.log) { $0.contains(.ignored(again, .duplicate)) }
        await queue.retryNow()
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        #expect(await queue.entitlements().activeSubscriptions == [ActiveSubscription(productID: subscription.id, expirationDate: extended)])
        await queue.stop()
    }

    /// A queue started over `policy` on a journal of its own, with a clock the test moves.
    static func started(_ policy: CompiledPolicy, trace: H.Trace, retry: RetryPolicy? = nil, name: String = #function)
        async throws -> (clock: H.ManualClock, world: H.World, queue: TransactionQueue) {
        let clock = H.ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let world = try H.World(name: name, trace: trace, retry: retry, now: { clock.now })
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        return (clock, world, queue)
    }
}

/// A step that fails for a passing reason its first times, then runs its base step.
private struct FlakyStep: StepPlugin {
    /// How many failures are left, shared by the copies the registry keeps.
    final class Failures: @unchecked Sendable {
        // @unchecked: `left` is read and written only under `lock`.
        private let lock = NSLock()
        private var left: Int
        init(_ count: Int) { left = count }
        func take() -> Bool {
            lock.withLock {
                guard left > 0 else { return false }
                left -= 1
                return true
            }
        }
    }

    let base: any StepPlugin
    let failures: Failures
    var name: String { base.name }
    var requirements: [StepRequirement] { base.requirements }

    func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        if failures.take() { throw .transient("the network is down (a test's failure)") }
        try await base.run(context, into: &effects)
    }
}
