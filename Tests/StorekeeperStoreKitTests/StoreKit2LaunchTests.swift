import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// The launch: the backend listens to `Transaction.updates` and
/// `PurchaseIntent.intents` from the moment it is made, keeps what arrives
/// while the queue replays its journal, and delivers a transaction StoreKit
/// gives both through `Transaction.unfinished` and through the listener once.
///
/// Apple's rule (https://developer.apple.com/documentation/storekit/transaction/updates):
/// "If your app has unfinished transactions, the updates listener receives
/// them once, immediately after the app launches… Create a Task to iterate
/// this sequence as early as possible when launching your app."
@Suite struct StoreKit2LaunchTests {
    typealias H = StoreKit2Harness

    @Test func theBackendListensFromTheMomentItIsMadeAndKeepsWhatArrivesForTheQueue() async throws {
        let h = try H()
        let backend = StoreKit2Backend(store: h.fake, applicationUsername: "player-1")
        try #require(h.fake.updatesAsked == 1, "listening before the queue starts")

        // Before the queue is even made (its journal still opening, its
        // server still asked): a renewal arrives, and the user starts a
        // promoted purchase in the App Store. Each returns once the backend took it.
        let renewed = H.now.addingTimeInterval(30 * 86_400)
        let renewal = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: renewed)
        await h.fake.emit(.verified(renewal))
        await h.fake.promote(H.noAds)
        #expect(await h.fake.purchases.isEmpty, "nothing is bought before the queue can hear of it")

        let app = try await h.start(backend)
        #expect(await app.queue.entitlements().activeSubscriptions == [ActiveSubscription(productID: H.pro, expirationDate: renewed)])
        #expect(await h.fake.finished.first == renewal.id)
        // The promoted purchase goes ahead once the queue is connected, on its own task.
        for _ in 0..<500 where !(await app.queue.entitlements()).owns(H.noAds) {
            try await Task.sleep(for: .milliseconds(10))
        }
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.map(\.productID) == [H.noAds])
        #expect(await app.queue.entitlements().owns(H.noAds))
        #expect(await h.log.updated.map(\.info.productID) == [H.pro, H.noAds])
        #expect(h.fake.updatesAsked == 1, "one listener a launch")
        await h.end(app)
    }

    @Test func anUnfinishedTransactionIsDeliveredOnceThoughUnfinishedAndTheListenerBothGiveIt() async throws {
        let h = try H()
        let coins = await h.fake.transaction(H.coins, type: .consumable)
        let car = await h.fake.transaction(H.car, type: .nonConsumable)
        await h.fake.holdUnfinished(.verified(coins))
        await h.fake.holdUnfinished(.verified(car))
        let app = try await h.launch()
        #expect(await h.log.updated.map(\.id) == [coins.id, car.id].map(String.init))
        #expect(await h.log.ignored.isEmpty, "the queue never saw either twice")
        #expect(await h.fake.finished == [coins.id, car.id], "each finished once")
        #expect(await app.queue.entitlements().balance("coins") == 500)
        await h.end(app)
    }

    @Test func anUpdateTheAppsOwnListenerHandsOverBeforeTheQueueConnectsWaitsForIt() async throws {
        let h = try H()
        let first = try await h.launch()
        let bought = await h.fake.transaction(H.noAds, type: .nonConsumable)
        await h.fake.willAnswer(.result(.success(.verified(bought))))
        try await first.queue.add(Payment(productID: H.noAds, applicationUsername: "player-1"))
        await first.queue.whenIdle()
        await h.end(first)

        // The next launch: the app's listener, started first, gets the
        // refund of the finished purchase while the queue still opens.
        let backend = StoreKit2Backend(store: h.fake, applicationUsername: "player-1", listensForUpdates: false)
        await backend.handle(.verified(bought.signedAgain(after: 60) { $0.revocationDate = H.now }))
        let second = try await h.start(backend)
        #expect(await h.log.revocations.map(\.transactionIDs) == [[String(bought.id)]], "kept, not dropped")
        #expect(!(await second.queue.entitlements()).owns(H.noAds))
        await h.end(second)
    }

    @Test func aTransactionSeenBeforeTheQueueConnectsIsNotDeliveredAgainByUnfinished() async throws {
        // The listener took the launch's replay before `connect` read
        // `Transaction.unfinished`: the same version from both is one delivery.
        let h = try H()
        let bought = await h.fake.transaction(H.noAds, type: .nonConsumable)
        await h.fake.holdUnfinished(.verified(bought))
        let backend = StoreKit2Backend(store: h.fake, applicationUsername: "player-1")
        await h.fake.launchReplayHandled()
        let app = try await h.start(backend)
        #expect(await h.log.updated.map(\.id) == [String(bought.id)])
        #expect(await h.log.ignored.isEmpty)
        #expect(await h.fake.finished == [bought.id])
        await h.end(app)
    }
}
