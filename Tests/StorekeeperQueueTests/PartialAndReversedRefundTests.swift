import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// Refunds the App Store prorates or reverses: a prorated refund takes its
/// share of each balance (the product goes whole), a reversed refund gives
/// back exactly what the refund took. The server does the same
/// (docs/server.md, "What the server grants over a purchase's life"), so the
/// device and the server agree.
@Suite struct PartialAndReversedRefundTests {
    typealias H = DeliveryHarness

    @Test func aProratedRefundOfOneOfThreeItemsTakesOneItemsGrant() async throws {
        // Apple: "If the purchase had a quantity greater than 1, this percentage
        // applies to the full quantity. For example, if 1 of 3 items was
        // refunded, the value would be approximately 33.333", in milliunits
        // 33333 (https://developer.apple.com/documentation/storekit/transaction/revocationpercentage,
        // https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage).
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 3)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        let before = await queue.entitlements()

        let refund = Self.refund(coins, ["a"], share: 33_333)
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        let after = await queue.entitlements()
        for grant in coins.grants {
            #expect(after.balance(grant.balance) == before.balance(grant.balance) - grant.amount, "one item of three: \(grant.balance)")
        }
        #expect(try await queue.grantLedger().map(\.amount) == coins.grants.map { $0.amount * 2 }, "the ledger says what stands")
        await queue.stop()
    }

    /// A prorated refund that arrives while the purchase's plan waits before its grant (a server that was
    /// down): the rest was paid for (`revocationPercentage`, "The percentage of the transaction amount that the
    /// App Store has refunded or revoked", https://developer.apple.com/documentation/storekit/transaction/revocationpercentage),
    /// so the grant, when it runs, gives what the refund left, in this launch or after a relaunch. Found by the
    /// device-and-server lives (seed 400027: the device granted nothing, the server two items of three).
    @Test(arguments: [false, true])
    func aProratedRefundBeforeTheGrantLeavesWhatItDidNotRefund(relaunching: Bool) async throws {
        let trace = H.Trace()
        let attempts = H.Attempts()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            let grant = try #require(plugins.step(named: "grant"))
            try plugins.register(H.FlakyStep(base: grant, attempts: attempts) { _, attempt in
                attempt == 1 ? .transient("the network is down") : nil
            })
        }
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace, retry: H.slowRetry)
        var queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 3)
        await world.store.send(purchase)
        try await H.eventually { await queue.pending().first?.attempts == 1 }
        #expect(await queue.entitlements().balances.isEmpty, "waiting before its grant")

        let refund = Self.refund(coins, ["a"], share: 33_333)
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        if relaunching {
            await queue.stop()
            queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
        }
        await queue.retryNow()
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        let after = await queue.entitlements()
        for grant in coins.grants {
            #expect(after.balance(grant.balance) == grant.amount * 2, "two items of three stand: \(grant.balance)")
        }
        #expect(try await queue.grantLedger().map(\.amount) == coins.grants.map { $0.amount * 2 }, "the ledger says what stands")
        await queue.stop()
    }

    @Test func aReversedProratedRefundGivesBackExactlyWhatItTookAndSurvivesARelaunch() async throws {
        // REFUND_REVERSED: "Indicates that the App Store reversed a previously
        // granted refund ... Reinstate the content or services that you revoked
        // for the refund"
        // (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 3)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        let before = await queue.entitlements()
        let refund = Self.refund(coins, ["a"], share: 33_333)
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        #expect(await queue.entitlements() != before)

        await world.store.send(.reinstated(Self.reversal(coins, ["a"])))
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.ignored(purchase, .duplicate)) }
        #expect(await queue.entitlements() == before, "what the refund took is back, nothing more")
        // The same reversal again, as a restore or a relaunch may send it: nothing more.
        await world.store.send(.reinstated(Self.reversal(coins, ["a"])))
        await queue.whenIdle()
        #expect(await queue.entitlements() == before)
        await queue.stop()

        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let again = try relaunch.queue(policy)
        try await again.start(observers: [relaunch.log])
        #expect(await again.entitlements() == before, "the journal has it")
        await again.stop()
    }

    @Test func aReversedRefundOfANonConsumableGivesBackItsOwnershipAndFeatures() async throws {
        // A refund takes the product (the server: "A revoked transaction ... gives
        // no product"); its reversal reinstates "the content or services that you
        // revoked" (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let car = try #require(policy.product(id: Self.rocketCar).map { policy.product($0) })
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", car, .purchased)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        let before = await queue.entitlements()
        let contentBefore = try await queue.contentLocations()
        #expect(before.owns(car.id))

        // Prorated or not, the product goes whole.
        let refund = Self.refund(car, ["a"], share: 40_000)
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        #expect(!(await queue.entitlements()).owns(car.id))

        // A copy signed before the refund reverses nothing.
        await world.store.send(.reinstated(StoreReinstatement(productID: car.id, transactionIDs: ["a"],
                                                              signedDate: Self.refunded.addingTimeInterval(-60))))
        await queue.whenIdle()
        #expect(!(await queue.entitlements()).owns(car.id), "a stale copy gives nothing back")

        await world.store.send(.reinstated(Self.reversal(car, ["a"])))
        try await H.eventually { await queue.entitlements() == before }
        #expect(try await queue.contentLocations() == contentBefore, "its content locations as they were")
        // Refunded again later: taken again.
        let second = StoreRevocation(productID: car.id, transactionIDs: ["a"], reason: .refund, date: Self.reversed.addingTimeInterval(60))
        await world.store.send(.revoked(second))
        try await H.settle(queue, world.log) { $0.contains(.revoked(second)) }
        #expect(!(await queue.entitlements()).owns(car.id))
        await queue.stop()
    }

    @Test func aTransactionRevokedWithoutARefundKeepsItsGrantsUntilARefundTakesThem() async throws {
        // An upgrade refunds nothing of the tier upgraded from ("look for another
        // transaction that has a subscription with a higher level of service":
        // https://developer.apple.com/documentation/storekit/transaction/isupgraded),
        // so it takes no balance; a refund of that transaction later takes what
        // it granted, as any refund does.
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        let before = await queue.entitlements()

        let upgrade = StoreRevocation(productID: coins.id, transactionIDs: ["a"], reason: .upgraded, date: Self.refunded, share: 0)
        await world.store.send(.revoked(upgrade))
        try await H.settle(queue, world.log) { $0.contains(.revoked(upgrade)) }
        #expect(await queue.entitlements().balances == before.balances, "nothing refunded, nothing taken")

        let refund = Self.refund(coins, ["a"], share: StoreRevocation.whole)
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        for grant in coins.grants {
            #expect(await queue.entitlements().balance(grant.balance) == before.balance(grant.balance) - grant.amount * 2)
        }
        // The same refund again: nothing more, and not told again.
        await world.store.send(.revoked(refund))
        await queue.whenIdle()
        #expect(await world.log.revocations == [upgrade, refund])
        await queue.stop()
    }

    // MARK: Helpers

    static let rocketCar = "com.example.rocketracer.vehicle.rocketcar"
    static let refunded = Date(timeIntervalSince1970: 1_800_000_050)
    static let reversed = Date(timeIntervalSince1970: 1_800_000_090)

    static func refund(_ product: ProductPolicy, _ ids: [String], share: Int) -> StoreRevocation {
        StoreRevocation(productID: product.id, transactionIDs: ids, reason: .refund, date: refunded, share: share)
    }

    static func reversal(_ product: ProductPolicy, _ ids: [String]) -> StoreReinstatement {
        StoreReinstatement(productID: product.id, transactionIDs: ids, signedDate: reversed)
    }
}
