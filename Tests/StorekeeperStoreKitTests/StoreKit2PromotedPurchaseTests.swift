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

/// Offers through the queue over StoreKit 2: the payment's offer reaches
/// `Product.purchase(options:)` as its purchase option (the fake records what
/// `StoreKit2Store.purchase` was given; `AppleStoreKit2Store` turns it into
/// `.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`,
/// https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:),
/// or `.winBackOffer(_:)`,
/// https://developer.apple.com/documentation/storekit/product/purchaseoption/winbackoffer(_:)),
/// and one the catalog does not declare never reaches StoreKit.
@Suite struct StoreKit2OfferTests {
    typealias H = StoreKit2Harness
    static let signature = PaymentOffer.Signature(keyID: "KEY123", nonce: UUID(), timestamp: 1_800_000_000_000, signature: Data([7, 7]))

    @Test func aDeclaredOfferIsPassedToTheStoreWithThePurchase() async throws {
        let h = try H.withOffers()
        let app = try await h.launch()
        let subscription = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(86_400))
        await h.fake.willAnswer(.result(.success(.verified(subscription))))
        try await app.queue.add(Payment(productID: H.pro, applicationUsername: "player-1",
                                        offer: .promotional("pro.spring", signature: Self.signature)))
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.map(\.offer) == [.promotional("pro.spring", signature: Self.signature)])
        #expect(await app.queue.entitlements().owns(H.pro))
        await h.end(app)
    }

    @Test func anUndeclaredOfferNeverReachesStoreKit() async throws {
        let h = try H.withOffers()
        let app = try await h.launch()
        await #expect(throws: PaymentError.undeclaredOffer(product: H.pro, kind: .winBack, id: "pro.gone", declared: ["pro.spring", "pro.comeback"])) {
            try await app.queue.add(Payment(productID: H.pro, offer: .winBack("pro.gone")))
        }
        #expect(await h.fake.purchases.isEmpty)
        await h.end(app)
    }
}

/// A win-back offer redeemed on the App Store arrives with its purchase
/// intent: "The system populates this value if the customer redeems a
/// winBack offer type outside of your app. Add this offer to the purchase
/// options" (https://developer.apple.com/documentation/storekit/purchaseintent/offer).
@Suite struct StoreKit2PurchaseIntentOfferTests {
    typealias H = StoreKit2Harness

    @Test func aWinBackRedemptionIsBoughtWithItsOffer() async throws {
        let h = try H.withOffers()
        let app = try await h.launch()
        await h.fake.promote(H.pro, offer: .winBack("pro.comeback"))
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.map(\.productID) == [H.pro])
        #expect(await h.fake.purchases.map(\.offer) == [.winBack("pro.comeback")], "not at full price")
        await h.end(app)
    }

    @Test func aRedemptionOfAnOfferTheCatalogDoesNotDeclareIsRefused() async throws {
        let h = try H.withOffers()
        let app = try await h.launch()
        await h.fake.promote(H.pro, offer: .winBack("pro.unknown"))
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.isEmpty)
        #expect(await h.log.refusedPromotions.map(\.1)
            == [.undeclaredOffer(product: H.pro, kind: .winBack, id: "pro.unknown", declared: ["pro.spring", "pro.comeback"])])
        await h.end(app)
    }
}
