import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// Who owns a product once one of the transactions that delivered it is revoked or reinstated: the
/// journal keeps one owner per product, and Apple's `Transaction.currentEntitlements` says which one
/// counts: "The latest transaction for each auto-renewable subscription", "The latest transaction for
/// each non-renewing subscription, including finished ones", and "Products that the App Store has
/// refunded or revoked" do not appear
/// (https://developer.apple.com/documentation/storekit/transaction/currententitlements).
/// Found by the device's random lives (docs/device-lives.md, "Disagreements found").
@Suite struct OwnershipAfterRevocationTests {
    typealias H = DeliveryHarness

    @Test func aRefundOfOneOfTwoPurchasesOfAPassLeavesThePassToTheOtherOne() async throws {
        // Bought twice while in force, the second purchase refunded: the first
        // still stands, so the pass (and what it unlocks) is still the user's,
        // for the first purchase's term; refunded too, the pass goes.
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let pass = try Self.product(Self.seasonPass, in: policy)
        try #require(pass.type == .nonRenewingSubscription && !pass.unlocks.isEmpty)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let first = Self.purchase("a", of: pass, at: Self.bought)
        let second = Self.purchase("b", of: pass, at: Self.bought.addingTimeInterval(60))
        for purchase in [first, second] {
            await world.store.send(purchase)
            try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        }
        let firstEnd = try #require(SubscriptionTerm.expiration(of: pass, bought: first.purchaseDate, storeExpiration: nil))

        let refund = StoreRevocation(productID: pass.id, transactionIDs: ["b"], reason: .refund, date: Self.refunded)
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        let after = await queue.entitlements()
        #expect(after.owns(pass.id), "the first purchase stands")
        #expect(Set(pass.unlocks).isSubset(of: after.features), "with what it unlocks")
        #expect(after.activeSubscriptions.map(\.expirationDate) == [firstEnd], "for the first purchase's term")
        await queue.stop()

        // The journal has it: the same after a relaunch, and the first's refund takes the pass.
        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let again = try relaunch.queue(policy)
        try await again.start(observers: [relaunch.log])
        #expect(await again.entitlements().owns(pass.id))
        let firstRefund = StoreRevocation(productID: pass.id, transactionIDs: ["a"], reason: .refund, date: Self.refunded)
        await relaunch.store.send(.revoked(firstRefund))
        try await H.settle(again, relaunch.log) { $0.contains(.revoked(firstRefund)) }
        let none = await again.entitlements()
        #expect(!none.owns(pass.id) && none.features.isDisjoint(with: pass.unlocks), "both refunded: nothing stands")
        await again.stop()
    }

    @Test func aReversedRefundOfASupersededPeriodGivesNothingBesideTheLaterPeriod() async throws {
        // A period of Pro refunded; the user subscribes again to the same
        // subscription (Pro Plus, its other level: the same original
        // transaction); Apple reverses the refund of the Pro period. Only the
        // latest period counts, so Pro stays off while Pro Plus runs.
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let pro = try Self.product(Self.proMonthly, in: policy)
        let proPlus = try Self.product(Self.proPlusMonthly, in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        try await Self.refundThenResubscribe(pro, as: "p1", then: proPlus, as: "p2", world: world, queue: queue)
        let current = await queue.entitlements()
        #expect(current.owns(proPlus.id) && !current.owns(pro.id))

        await world.store.send(.reinstated(StoreReinstatement(productID: pro.id, transactionIDs: ["p1"], signedDate: Self.reversed)))
        await queue.whenIdle()
        let after = await queue.entitlements()
        #expect(!after.owns(pro.id), "the reinstated period is not the subscription's latest")
        #expect(after.activeSubscriptions.map(\.productID) == [proPlus.id])
        #expect(after == current, "nothing more than the latest period gives")

        // The later period refunded in its turn: the earlier one, reinstated, is the latest that stands.
        let laterRefund = StoreRevocation(productID: proPlus.id, transactionIDs: ["p2"], reason: .refund, date: Self.reversed.addingTimeInterval(60))
        await world.store.send(.revoked(laterRefund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(laterRefund)) }
        let back = await queue.entitlements()
        #expect(back.owns(pro.id) && !back.owns(proPlus.id))
        #expect(Set(pro.unlocks).isSubset(of: back.features))
        await queue.stop()
    }

    @Test func aReversedRefundOfASupersededPeriodKeptOnTheServerGivesNothingEither() async throws {
        // The same life with the periods' records on the server (Daily Planet
        // keeps its subscriptions there): the server's record of the
        // reinstated period is read again at every refresh, and must not give
        // back what the journal withholds. Found by the device-and-server
        // lives (seeds 1101, 1332 and more: docs/server.md).
        let trace = H.Trace()
        let policy = try H.tracedPolicy("daily-planet", trace: trace)
        let digital = try Self.product("com.example.dailyplanet.digital.monthly", in: policy)
        let allAccess = try Self.product("com.example.dailyplanet.allaccess.monthly", in: policy)
        try #require(digital.persistence == .server && allAccess.persistence == .server)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        try await Self.refundThenResubscribe(digital, as: "d1", then: allAccess, as: "d2", world: world, queue: queue)
        await world.store.send(.reinstated(StoreReinstatement(productID: digital.id, transactionIDs: ["d1"], signedDate: Self.reversed)))
        await queue.whenIdle()
        await queue.refreshEntitlements()
        let after = await queue.entitlements()
        #expect(after.owns(allAccess.id))
        #expect(!after.owns(digital.id), "the server's record of the reinstated period is not the subscription's latest")
        #expect(after.activeSubscriptions.map(\.productID) == [allAccess.id])
        await queue.stop()
    }

    // MARK: Helpers

    static let seasonPass = "com.example.rocketracer.seasonpass.spring"
    static let proMonthly = "com.example.rocketracer.pro.monthly"
    static let proPlusMonthly = "com.example.rocketracer.proplus.monthly"
    /// Dates after the tests run, so that every term bought is still in force.
    static let bought = Date(timeIntervalSince1970: 1_900_000_000)
    static let refunded = bought.addingTimeInterval(3_600)
    static let reversed = bought.addingTimeInterval(2 * 86_400)

    static func product(_ id: String, in policy: CompiledPolicy) throws -> ProductPolicy {
        try #require(policy.product(id: id).map { policy.product($0) })
    }

    static func purchase(_ id: String, of product: ProductPolicy, at date: Date) -> StoreTransaction {
        var transaction = H.transaction(id, product, .purchased)
        transaction.purchaseDate = date
        return transaction
    }

    /// A period of an auto-renewable subscription whose original transaction is `original`.
    static func period(_ id: String, of product: ProductPolicy, original: String, at date: Date, endingAt end: Date) -> StoreTransaction {
        var transaction = purchase(id, of: product, at: date)
        transaction.originalID = original
        transaction.expirationDate = end
        return transaction
    }

    /// The life both superseded-period tests start from: a first period of `earlier` (`earlierID`, its
    /// subscription's original) delivered, then refunded; a day after it, a period of `later` (another level of
    /// the same subscription) delivered.
    static func refundThenResubscribe(_ earlier: ProductPolicy, as earlierID: String, then later: ProductPolicy, as laterID: String,
                                      world: H.World, queue: TransactionQueue) async throws {
        let first = period(earlierID, of: earlier, original: earlierID, at: bought, endingAt: bought.addingTimeInterval(30 * 86_400))
        await world.store.send(first)
        try await H.settle(queue, world.log) { $0.contains(.removed(first.info)) }
        let refund = StoreRevocation(productID: earlier.id, transactionIDs: [earlierID], reason: .refund, date: refunded)
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }

        let resubscribed = bought.addingTimeInterval(86_400)
        let next = period(laterID, of: later, original: earlierID, at: resubscribed, endingAt: resubscribed.addingTimeInterval(30 * 86_400))
        await world.store.send(next)
        try await H.settle(queue, world.log) { $0.contains(.removed(next.info)) }
    }
}
