import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// Restores: `AppStore.sync()`, then `Transaction.currentEntitlements` as
/// `restored` transactions, then the end of the restore.
@Suite struct StoreKit2RestoreTests {
    typealias H = StoreKit2Harness

    @Test func aRestoreSyncsThenDeliversTheCurrentEntitlementsAsRestored() async throws {
        let h = try H()
        let expires = H.now.addingTimeInterval(86_400)
        let firstPro = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-86_400))
        let renewal = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, originalID: firstPro.id, expires: expires)
        let car = await h.fake.transaction(H.car, type: .nonConsumable, ownership: .familyShared)
        let pass = await h.fake.transaction(H.seasonPass, type: .nonRenewingSubscription)
        // Bought on another device: this one has never seen them.
        await h.fake.setEntitlements([.verified(renewal), .verified(car), .verified(pass)])
        let app = try await h.launch()
        await app.queue.restoreCompletedTransactions(applicationUsername: "player-1")
        await app.queue.whenIdle()

        #expect(await h.fake.syncs == 1)
        let restored = await h.log.updated
        #expect(restored.map(\.info.state) == [.restored, .restored, .restored])
        #expect(restored.map(\.id) == [renewal.id, car.id, pass.id].map(String.init))
        #expect(restored.map(\.originalID) == [firstPro.id, car.id, pass.id].map { Optional(String($0)) }, "a renewal restores its original purchase")
        #expect(restored.allSatisfy { $0.info.applicationUsername == "player-1" })
        #expect(await h.log.restoreEnds == [.restoreFinished])
        let entitlements = await app.queue.entitlements()
        // The receipt-kept products through StoreKit's entitlements; the pass through its iCloud record.
        #expect(entitlements.owns(H.pro) && entitlements.owns(H.car) && entitlements.owns(H.seasonPass))
        #expect(entitlements.isUnlocked("rocket-car") && entitlements.isUnlocked("pro-garage") && entitlements.isUnlocked("season-events"))
        #expect(Set(await h.fake.finished) == [renewal.id, car.id, pass.id])
        await h.end(app)
    }

    @Test func aRestoreOnTheDeviceThatBoughtDeliversNothingTwice() async throws {
        let h = try H()
        let app = try await h.launch()
        let bought = await h.fake.transaction(H.noAds, type: .nonConsumable)
        await h.fake.willAnswer(.result(.success(.verified(bought))))
        try await app.queue.add(Payment(productID: H.noAds, applicationUsername: "player-1"))
        await app.queue.whenIdle()
        await h.fake.setEntitlements([.verified(bought)])
        await app.queue.restoreCompletedTransactions(applicationUsername: "player-1")
        await app.queue.whenIdle()
        #expect(await h.log.updated.map(\.info.state) == [.purchased])
        #expect(await h.log.ignored.map(\.1) == [.conflicting])
        #expect(await app.queue.entitlements().owns(H.noAds))
        await h.end(app)
    }

    @Test func aFailedSyncFailsTheRestore() async throws {
        let h = try H()
        let app = try await h.launch()
        await h.fake.setEntitlements([.verified(await h.fake.transaction(H.noAds, type: .nonConsumable))])
        await h.fake.setSyncFailure(StoreKit2Failure(.userCancelled, message: "the user cancelled signing in"))
        await app.queue.restoreCompletedTransactions(applicationUsername: "player-1")
        await app.queue.whenIdle()
        #expect(await h.log.restoreEnds == [.restoreFailed(.paymentCancelled)])
        #expect(await h.log.updated.isEmpty, "nothing restored after a failed sync")
        await h.end(app)
    }
}
