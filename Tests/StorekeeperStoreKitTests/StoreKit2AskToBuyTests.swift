import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// Pending purchases (Ask to Buy): a `deferred` transaction under a local
/// id, then the approval that arrives on `Transaction.updates` matched to it.
@Suite struct StoreKit2AskToBuyTests {
    typealias H = StoreKit2Harness

    @Test func aPendingPurchaseIsDeferredUnderALocalIDAndItsApprovalCompletesIt() async throws {
        let h = try H()
        let app = try await h.launch()
        await h.fake.willAnswer(.result(.pending))
        try await app.queue.add(Payment(productID: H.noAds, applicationUsername: "player-1"))
        await app.queue.whenIdle()

        let deferred = try #require(await h.log.updated.first)
        #expect(deferred.info.state == .deferred)
        #expect(deferred.id.hasPrefix("pending-") && UUID(uuidString: String(deferred.id.dropFirst("pending-".count))) != nil)
        #expect(await app.queue.pending().isEmpty, "a deferred plan only notifies: nothing waits in the queue")
        #expect(!(await app.queue.entitlements()).owns(H.noAds))
        #expect(await app.backend.pendingPurchases().map(\.id) == [deferred.id])

        // The parent approves: StoreKit sends the purchase on Transaction.updates.
        let approved = await h.fake.transaction(H.noAds, type: .nonConsumable, token: AppAccountToken.derive(fromUser: "player-1"))
        await h.fake.emit(.verified(approved))
        await app.queue.whenIdle()

        #expect(await app.queue.entitlements().owns(H.noAds))
        let purchased = try #require(await h.log.updated.last)
        #expect(purchased.id == String(approved.id) && purchased.info.state == .purchased)
        #expect(purchased.info.applicationUsername == "player-1")
        #expect(await app.backend.pendingPurchases().map(\.completedBy) == [String(approved.id)])
        #expect(await h.fake.finished == [approved.id])
        await h.end(app)
    }

    @Test func approvalsCompleteTheOldestPendingPurchaseOfTheirProductAndToken() async throws {
        let h = try H()
        let app = try await h.launch()
        let player1 = AppAccountToken.derive(fromUser: "player-1")
        let player2 = AppAccountToken.derive(fromUser: "player-2")
        for (product, user) in [(H.coins, "player-1"), (H.noAds, "player-2"), (H.coins, "player-1"), (H.coins, "player-2")] {
            await h.fake.willAnswer(.result(.pending))
            try await app.queue.add(Payment(productID: product, applicationUsername: user))
        }
        await app.queue.whenIdle()
        let pending = await app.backend.pendingPurchases()
        #expect(Set(pending.map(\.id)).count == 4, "every pending purchase has its own id")

        let second = await h.fake.transaction(H.coins, type: .consumable, token: player1)
        let other = await h.fake.transaction(H.coins, type: .consumable, token: player2)
        let first = await h.fake.transaction(H.coins, type: .consumable, token: player1)
        await h.fake.emit(.verified(second))
        await h.fake.emit(.verified(other))
        await h.fake.emit(.verified(first))
        // The same approval again (StoreKit may repeat an update) completes nothing more.
        await h.fake.emit(.verified(first))
        await app.queue.whenIdle()

        let completed = await app.backend.pendingPurchases().map(\.completedBy)
        #expect(completed == [String(second.id), nil, String(first.id), String(other.id)])
        #expect(await app.queue.entitlements().balance("coins") == 1_500)
        #expect(await h.log.updated.filter { $0.info.state == .purchased }.map(\.info.applicationUsername) == ["player-1", "player-2", "player-1"])
        await h.end(app)
    }

    @Test func aDeclinedRequestNeverCompletes() async throws {
        // StoreKit 2 sends nothing when a parent declines: the app sees the
        // deferred transaction and nothing after it.
        let h = try H()
        let app = try await h.launch()
        await h.fake.willAnswer(.result(.pending))
        try await app.queue.add(Payment(productID: H.pro, applicationUsername: "player-1"))
        await app.queue.whenIdle()

        let events = await h.log.events
        #expect(events.count == 2)
        guard case .updated(let deferred) = events.first, case .notify(let told) = events.last else {
            Issue.record("expected the deferred update and its notify, got \(events)")
            return
        }
        #expect(deferred.info.state == .deferred && told.state == .deferred)
        #expect(await app.backend.pendingPurchases().map(\.completedBy) == [nil])
        #expect(await app.queue.entitlements() == Entitlements())
        #expect(await h.fake.finished.isEmpty)
        await h.end(app)
    }
}
