import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// Promoted purchases over StoreKit 2 (`PurchaseIntent.intents`): a purchase
/// the user starts on the App Store goes through the queue's checks and the
/// app's say before anything is bought, as a payment the app adds does.
///
/// Apple (https://developer.apple.com/documentation/storekit/purchaseintent):
/// a purchase intent is a purchase "the customer initiated … outside of your
/// app, for your app to complete": the app completes it, so the app may also
/// not (yet). StoreKit 1 says so outright: "Return false to defer or cancel
/// the transaction. If you return false, you can continue the transaction
/// later" (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:shouldaddstorepayment:for:)).
@Suite struct StoreKit2PromotedPurchaseTests {
    typealias H = StoreKit2Harness

    @Test func aPromotedPurchaseOfAProductTheCatalogDoesNotSellIsRefusedAndNotBought() async throws {
        let h = try H()
        let app = try await h.launch()
        let unknown = "com.example.rocketracer.noadz"
        await h.fake.promote(unknown)
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.isEmpty, "StoreKit is never asked to buy what the catalog does not sell")
        let refused = await h.log.refusedPromotions
        #expect(refused.map(\.0.payment.productID) == [unknown])
        guard case .unknownProduct(let id, let suggestion)? = refused.first?.1 else {
            Issue.record("refused for another reason: \(refused)")
            return
        }
        #expect(id == unknown)
        #expect(suggestion == H.noAds, "the error says what would be right")
        #expect(await h.log.updated.isEmpty)
        await h.end(app)
    }

    @Test func theAppCanPutAPromotedPurchaseOffAndBuyItLater() async throws {
        let h = try H()
        let asked = Locked<[PromotedPurchase]>([])
        let app = try await h.launch(user: "player-3") { purchase in
            asked.withLock { $0.append(purchase) }
            return .later
        }
        await h.fake.promote(H.noAds)
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.isEmpty, "put off: nothing bought")
        let kept = try #require(asked.withLock { $0 }.first)
        #expect(kept.payment == Payment(productID: H.noAds, applicationUsername: "player-3"))
        #expect(!(await app.queue.entitlements()).owns(H.noAds))

        // Onboarding done: the app buys what the user chose on the App Store.
        try await app.queue.add(kept.payment)
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.map(\.productID) == [H.noAds])
        #expect(await h.fake.purchases.map(\.token) == [AppAccountToken.derive(fromUser: "player-3")])
        #expect(await app.queue.entitlements().owns(H.noAds))
        await h.end(app)
    }

    @Test func theAppIsAskedOnlyAboutPromotedPurchasesThatPassTheChecks() async throws {
        let h = try H()
        let asked = Locked<[String]>([])
        let app = try await h.launch { purchase in
            asked.withLock { $0.append(purchase.payment.productID) }
            return .buyNow
        }
        await h.fake.promote("com.example.rocketracer.unknown")
        await h.fake.promote(H.car)
        await app.queue.whenIdle()
        #expect(asked.withLock { $0 } == [H.car])
        #expect(await h.fake.purchases.map(\.productID) == [H.car])
        #expect(await app.queue.entitlements().owns(H.car))
        await h.end(app)
    }
}
