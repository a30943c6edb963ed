import Foundation
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// Family Sharing: family-shareable non-consumables and subscriptions reach each family member as transactions of
/// their own with inAppOwnershipType FAMILY_SHARED; leaving the family revokes them (REVOKE, revocationReason 0,
/// FAMILY_REVOKE); a purchaser's refund revokes them too
/// (https://developer.apple.com/documentation/storekit/supporting-family-sharing-in-your-app,
/// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype REVOKE and SUBSCRIBED,
/// https://developer.apple.com/documentation/appstoreserverapi/revocationreason,
/// https://developer.apple.com/documentation/appstoreserverapi/revocationtype).
@Suite struct FamilyTests {
    @Test func shareableNonConsumableIsSharedAndRevokedOnLeaving() throws {
        var model = try ModelFixture.model()
        let pro = try #require(try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: Catalog.pro))).transactions.first)
        _ = try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: Catalog.theme)))
        _ = try model.perform(.signIn(appleID: "kid", account: "u2"))
        let joined = try model.perform(.joinFamily(appleID: "kid", organizer: "org"))
        #expect(joined.transactions.count == 1)
        let copy = try #require(joined.transactions.first)
        #expect(copy.appleID == "kid" && copy.account == "u2")
        #expect(copy.payload.ownership == .familyShared)
        #expect(copy.payload.productID == Catalog.pro)
        #expect(copy.payload.transactionID != pro.payload.transactionID)
        #expect(copy.payload.appAccountToken == nil)
        #expect(model.entitlements(of: "u2").products == [Catalog.pro])

        let left = try model.perform(.leaveFamily(appleID: "kid"))
        #expect(left.kinds == ["REVOKE"])
        let revoked = try #require(left.transactions.first?.payload)
        #expect(revoked.transactionID == copy.payload.transactionID)
        #expect(revoked.revocationType == .familyRevoke)
        #expect(revoked.revocationReason == .otherReason)
        #expect(model.entitlements(of: "u2").products == [])
        #expect(model.entitlements(of: "u1").products == [Catalog.pro, Catalog.theme])
    }

    @Test func purchasersRefundRevokesTheFamilyCopy() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.joinFamily(appleID: "kid", organizer: "org"))
        let bought = try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: Catalog.pro)))
        #expect(bought.transactions.map(\.payload.ownership) == [.purchased, .familyShared])
        let id = try #require(bought.transactions.first?.payload.transactionID)
        let refunded = try model.perform(.refund(transactionID: id, percentage: nil))
        #expect(refunded.kinds == ["REFUND", "REVOKE"])
        #expect(model.entitlements(of: "kid").products == [])
    }

    @Test func sharedSubscriptionFollowsThePurchaser() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: Catalog.premiumMonthly)))
        let joined = try model.perform(.joinFamily(appleID: "kid", organizer: "org"))
        #expect(joined.kinds == ["SUBSCRIBED/INITIAL_BUY 1"])
        let copy = try #require(joined.notifications.first?.transaction)
        #expect(copy.ownership == .familyShared)
        #expect(copy.expiresDate == ModelFixture.monthLater)
        #expect(model.entitlements(of: "kid").products == [Catalog.premiumMonthly])
        let renewed = try model.advance(to: ModelFixture.monthLater)
        #expect(renewed.kinds == ["DID_RENEW 1", "DID_RENEW 1"])
        #expect(renewed.transactions.map(\.appleID) == ["org", "kid"])
        let left = try model.perform(.leaveFamily(appleID: "kid"))
        #expect(left.kinds == ["REVOKE 5"])
        #expect(model.entitlements(of: "kid").subscriptions == [])
        #expect(model.entitlements(of: "u1").subscriptions.first?.status == "active")
    }

    /// Consumables and a non-shareable product are never shared; a family copy grants no balance.
    @Test func notShareableStaysWithThePurchaser() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.joinFamily(appleID: "kid", organizer: "org"))
        let coins = try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: Catalog.coins)))
        let plus = try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: Catalog.plusMonthly)))
        #expect(coins.transactions.count == 1 && plus.transactions.count == 1)
        #expect(model.entitlements(of: "kid") == ExpectedEntitlements(balances: [Catalog.coinsBalance: 0]))
    }
}
