import Foundation
import StorekeeperCore
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

@Suite struct OwnershipAndRevocationTests {
    /// Renewals carry the subscription's appAccountToken
    /// (https://developer.apple.com/documentation/appstoreserverapi/appaccounttoken), so they belong to that app
    /// account; a resubscription without a token keeps the original's holder (Storekeeper's rule: ownership follows
    /// the original transaction).
    @Test func renewalsFollowTheTokenAndTheOriginal() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly))).transactions.first)
        let renewal = try #require(try model.advance(to: ModelFixture.monthLater.addingTimeInterval(1)).transactions.first)
        #expect(renewal.payload.appAccountToken == AppAccountToken.derive(fromUser: "u1"))
        #expect(model.world.holders[renewal.payload.transactionID] == "u1")
        _ = try model.perform(.setAutoRenew(appleID: "ann", originalTransactionID: first.payload.transactionID, on: false))
        _ = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(40 * ModelFixture.day))
        let again = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u2", productID: Catalog.plusMonthly,
                                                                   setsAppAccountToken: false))).transactions.first)
        #expect(again.payload.originalTransactionID == first.payload.transactionID)
        #expect(model.world.holders[again.payload.transactionID] == "u1")
        #expect(model.entitlements(of: "u1").products == [Catalog.plusMonthly])
        #expect(model.entitlements(of: "u2").products == [])
    }

    /// A refund of coins already spent leaves a debt, and a later purchase pays it first (Storekeeper's rule).
    @Test func debtIsPaidByTheNextGrant() throws {
        var model = try ModelFixture.model()
        let bought = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins))).transactions.first)
        _ = try model.perform(.spend(account: "u1", balance: Catalog.coinsBalance, amount: 100))
        _ = try model.perform(.refund(transactionID: bought.payload.transactionID, percentage: nil))
        #expect(model.entitlements(of: "u1").owed == [Catalog.coinsBalance: 100])
        _ = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins, quantity: 3)))
        #expect(model.entitlements(of: "u1").owed == [:])
        #expect(model.entitlements(of: "u1").balances == [Catalog.coinsBalance: 200])
    }

    /// A reversed refund of a subscription's current period gives the period back
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype REFUND_REVERSED).
    @Test func reversedSubscriptionRefundReinstatesThePeriod() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly))).transactions.first)
        _ = try model.perform(.refund(transactionID: first.payload.transactionID, percentage: nil))
        #expect(model.entitlements(of: "u1").subscriptions == [])
        let reversed = try model.perform(.reverseRefund(transactionID: first.payload.transactionID))
        #expect(reversed.kinds == ["REFUND_REVERSED 1"])
        #expect(reversed.transactions.first?.payload.revocationPercentage == nil)
        #expect(model.entitlements(of: "u1").subscriptions.first?.status == "active")
    }

    /// The purchaser's refund of a shared subscription's current period revokes the members' copies (REVOKE,
    /// status 5); the organizer leaving disbands the family, revoking what was shared
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype REVOKE,
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationreason: "matches the value of the
    /// purchaser's revocation reason").
    @Test func familyRevocations() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.joinFamily(appleID: "kid", organizer: "org"))
        _ = try model.perform(.joinFamily(appleID: "teen", organizer: "org"))
        let sub = try #require(try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: Catalog.premiumMonthly))).transactions.first)
        let refunded = try model.perform(.refund(transactionID: sub.payload.transactionID, percentage: 40_000))
        #expect(refunded.kinds == ["REFUND 5", "REVOKE 5", "REVOKE 5"])
        let revocations = refunded.transactions.filter { $0.payload.ownership == .familyShared }
        #expect(revocations.allSatisfy { $0.payload.revocationReason == sub.payload.revocationReason ?? .otherReason })
        #expect(revocations.allSatisfy { $0.payload.revocationType == .familyRevoke })
        _ = try model.perform(.buy(Purchase(appleID: "teen", account: "u3", productID: Catalog.pro)))
        #expect(model.entitlements(of: "kid").products == [Catalog.pro])
        let disbanded = try model.perform(.leaveFamily(appleID: "org"))
        #expect(disbanded.kinds == ["REVOKE", "REVOKE"])
        #expect(model.entitlements(of: "kid").products == [])
        #expect(model.entitlements(of: "org").products == [])
        #expect(model.entitlements(of: "u3").products == [Catalog.pro])
        #expect(model.world.families.isEmpty)
    }

    /// Offer codes redeem with OFFER_REDEEMED; a win-back offer is for lapsed subscribers only
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype OFFER_REDEEMED,
    /// https://developer.apple.com/documentation/storekit/supporting-win-back-offers-in-your-app).
    @Test func offerCodesAndWinBack() throws {
        var model = try ModelFixture.model()
        let winBack = Offer(kind: .winBack, identifier: "back", discountType: .payUpFront)
        #expect(throws: StoreModelError.self) {
            try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly, offer: winBack)))
        }
        let code = Offer(kind: .offerCode, identifier: "SPRING", discountType: .payAsYouGo, periods: 3)
        let redeemed = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly, offer: code)))
        #expect(redeemed.kinds == ["OFFER_REDEEMED/INITIAL_BUY 1"])
        #expect(redeemed.transactions.first?.payload.offerType == 3)
        #expect(redeemed.notifications.first?.renewal?.offerType == 3)
        let renewed = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(1))
        #expect(renewed.transactions.first?.payload.offerIdentifier == "SPRING")
    }
}
