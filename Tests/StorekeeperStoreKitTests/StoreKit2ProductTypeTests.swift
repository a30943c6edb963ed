import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// Each product type through each state StoreKit 2 can put it in: pending,
/// approved, cancelled, unverified, refunded; and a promoted purchase.
@Suite struct StoreKit2ProductTypeTests {
    typealias H = StoreKit2Harness

    static let products: [(String, ProductType)] = [
        (H.coins, .consumable), (H.noAds, .nonConsumable), (H.pro, .autoRenewableSubscription), (H.seasonPass, .nonRenewingSubscription),
    ]

    /// Whether what a purchase of `productID` delivers is there.
    static func delivered(_ productID: String, _ type: ProductType, in entitlements: Entitlements) -> Bool {
        type == .consumable ? entitlements.balance("coins") == 500 : entitlements.owns(productID)
    }

    @Test(arguments: products)
    func everyStateOfEveryProductType(productID: String, type: ProductType) async throws {
        let h = try H()
        let app = try await h.launch()
        let token = AppAccountToken.derive(fromUser: "player-1")

        // Pending (Ask to Buy), then approved.
        await h.fake.willAnswer(.result(.pending))
        try await app.queue.add(Payment(productID: productID, applicationUsername: "player-1"))
        await app.queue.whenIdle()
        #expect(!Self.delivered(productID, type, in: await app.queue.entitlements()))
        let expires = type == .autoRenewableSubscription ? H.now.addingTimeInterval(86_400) : nil
        let approved = await h.fake.transaction(productID, type: type, token: token, expires: expires)
        await h.fake.emit(.verified(approved))
        await app.queue.whenIdle()
        #expect(Self.delivered(productID, type, in: await app.queue.entitlements()))

        // Cancelled, then a bad signature: nothing more delivered, nothing taken.
        await h.fake.willAnswer(.result(.userCancelled))
        try await app.queue.add(Payment(productID: productID, applicationUsername: "player-1"))
        let forged = await h.fake.transaction(productID, type: type, token: token, expires: expires)
        await h.fake.willAnswer(.result(.success(.unverified(forged, reason: "invalidSignature"))))
        try await app.queue.add(Payment(productID: productID, applicationUsername: "player-1"))
        await app.queue.whenIdle()
        #expect(Self.delivered(productID, type, in: await app.queue.entitlements()))

        // Refunded.
        await h.fake.emit(.verified(approved.signedAgain(after: 60) { $0.revocationDate = H.now }))
        await app.queue.whenIdle()
        #expect(!Self.delivered(productID, type, in: await app.queue.entitlements()))
        #expect(await app.queue.entitlements() == Entitlements())

        let states = await h.log.updated.map { $0.info.error.map { "failed \($0.rawValue)" } ?? $0.info.state.rawValue }
        #expect(states == ["deferred", "purchased", "failed payment-cancelled", "failed verification-failed"])
        #expect(await h.log.revocations.map(\.transactionIDs) == [[String(approved.id)]])
        // StoreKit's finish(): the approved purchase once delivered and again once revoked; the
        // unverified one never (Apple's sample does not finish what fails verification:
        // https://developer.apple.com/documentation/storekit/implementing-a-store-in-your-app-using-the-storekit-api).
        #expect(await h.fake.finished == [approved.id, approved.id])
        #expect(await h.fake.unfinishedIDs == [forged.id])
        await h.end(app)
    }

    @Test func aPromotedPurchaseIsBoughtForTheSignedInUser() async throws {
        let h = try H()
        let app = try await h.launch(user: "player-7")
        await h.fake.promote(H.noAds)
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.map(\.productID) == [H.noAds])
        #expect(await h.fake.purchases.map(\.token) == [AppAccountToken.derive(fromUser: "player-7")])
        #expect(await app.queue.entitlements().owns(H.noAds))
        #expect(await h.log.updated.map(\.info.applicationUsername) == ["player-7"])
        await h.end(app)
    }
}
