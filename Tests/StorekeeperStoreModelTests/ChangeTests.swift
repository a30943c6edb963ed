import Foundation
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// Upgrades, downgrades and crossgrades within a group: levels rank the group (1 highest); an upgrade takes effect
/// at once, a downgrade at the next renewal, a crossgrade at once for equal durations and at the next renewal
/// otherwise (https://developer.apple.com/help/app-store-connect/manage-subscriptions/offer-auto-renewable-subscriptions,
/// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype DID_CHANGE_RENEWAL_PREF,
/// https://developer.apple.com/documentation/appstoreserverapi/isupgraded).
@Suite struct ChangeTests {
    @Test func upgradeIsImmediateAndTheOldTransactionIsUpgraded() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly))).transactions.first)
        let at = ModelFixture.start.addingTimeInterval(10 * ModelFixture.day)
        _ = try model.advance(to: at)
        let upgraded = try model.perform(.changeSubscription(appleID: "ann", originalTransactionID: first.payload.transactionID, to: Catalog.premiumMonthly))
        #expect(upgraded.kinds == ["DID_CHANGE_RENEWAL_PREF/UPGRADE 1"])
        let old = try #require(upgraded.transactions.first { $0.payload.transactionID == first.payload.transactionID })
        #expect(old.payload.isUpgraded == true)
        let new = try #require(upgraded.transactions.first { $0.payload.transactionID != first.payload.transactionID })
        #expect(new.payload.productID == Catalog.premiumMonthly)
        #expect(new.payload.purchaseDate == at)
        #expect(new.payload.originalTransactionID == first.payload.transactionID)
        #expect(upgraded.notifications.first?.transaction == new.payload)
        #expect(model.entitlements(of: "u1").products == [Catalog.premiumMonthly])
        #expect(model.entitlements(of: "u1").features == ["plus", "premium"])
    }

    @Test func downgradeWaitsForTheRenewal() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.premiumMonthly))).transactions.first)
        let down = try model.perform(.changeSubscription(appleID: "ann", originalTransactionID: first.payload.transactionID, to: Catalog.plusMonthly))
        #expect(down.kinds == ["DID_CHANGE_RENEWAL_PREF/DOWNGRADE 1"])
        #expect(down.notifications.first?.renewal?.autoRenewProductID == Catalog.plusMonthly)
        #expect(down.transactions.isEmpty)
        #expect(model.entitlements(of: "u1").products == [Catalog.premiumMonthly])
        let renewed = try model.advance(to: ModelFixture.monthLater)
        #expect(renewed.kinds == ["DID_RENEW 1"])
        #expect(renewed.transactions.first?.payload.productID == Catalog.plusMonthly)
        #expect(model.entitlements(of: "u1").products == [Catalog.plusMonthly])
    }

    @Test func crossgradeOfAnotherDurationWaitsAndCanBeCancelled() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly))).transactions.first)
        let id = first.payload.transactionID
        let cross = try model.perform(.changeSubscription(appleID: "ann", originalTransactionID: id, to: Catalog.plusYearly))
        #expect(cross.kinds == ["DID_CHANGE_RENEWAL_PREF 1"])
        #expect(cross.notifications.first?.renewal?.autoRenewProductID == Catalog.plusYearly)
        let back = try model.perform(.changeSubscription(appleID: "ann", originalTransactionID: id, to: Catalog.plusMonthly))
        #expect(back.kinds == ["DID_CHANGE_RENEWAL_PREF 1"])
        #expect(back.notifications.first?.renewal?.autoRenewProductID == Catalog.plusMonthly)
        #expect(try model.advance(to: ModelFixture.monthLater).transactions.first?.payload.productID == Catalog.plusMonthly)
    }
}
