import Foundation
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

@Suite struct RefundTests {
    /// REFUND: a new version with revocationDate, revocationReason and revocationType REFUND_FULL; the device gets
    /// it through Transaction.updates; a refund of coins already spent leaves a debt (Storekeeper's rule)
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationtype,
    /// https://developer.apple.com/documentation/storekit/transaction/updates).
    @Test func fullRefundTakesEverythingBack() throws {
        var model = try ModelFixture.model()
        let bought = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins))).transactions.first)
        _ = try model.perform(.spend(account: "u1", balance: Catalog.coinsBalance, amount: 70))
        _ = try model.advance(to: ModelFixture.start.addingTimeInterval(ModelFixture.day))
        let refunded = try model.perform(.refund(transactionID: bought.payload.transactionID, percentage: nil))
        #expect(refunded.kinds == ["REFUND"])
        let version = try #require(refunded.transactions.first?.payload)
        #expect(version.transactionID == bought.payload.transactionID)
        #expect(version.revocationDate == ModelFixture.start.addingTimeInterval(ModelFixture.day))
        #expect(version.revocationType == .refundFull)
        #expect(version.revocationReason != nil)
        #expect(refunded.notifications.first?.transaction == version)
        #expect(model.entitlements(of: "u1").balances[Catalog.coinsBalance] == 0)
        #expect(model.entitlements(of: "u1").owed == [Catalog.coinsBalance: 70])
        #expect(throws: StoreModelError.self) { try model.perform(.refund(transactionID: bought.payload.transactionID, percentage: nil)) }
    }

    /// A prorated refund states revocationPercentage in milliunits and REFUND_PRORATED
    /// (https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage); one item of three
    /// (33333) takes back a third of what it granted, rounded to the nearest unit (Storekeeper's rule).
    @Test func proratedRefundTakesItsShare() throws {
        var model = try ModelFixture.model()
        let bought = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins, quantity: 3))).transactions.first)
        let refunded = try model.perform(.refund(transactionID: bought.payload.transactionID, percentage: 33_333))
        #expect(refunded.transactions.first?.payload.revocationPercentage == 33_333)
        #expect(refunded.transactions.first?.payload.revocationType == .refundProrated)
        #expect(model.entitlements(of: "u1").balances[Catalog.coinsBalance] == 200)
    }

    /// REFUND_DECLINED changes nothing; REFUND_REVERSED reinstates what the refund took
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    @Test func declinedAndReversed() throws {
        var model = try ModelFixture.model()
        let bought = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.theme))).transactions.first)
        let declined = try model.perform(.declineRefund(transactionID: bought.payload.transactionID))
        #expect(declined.kinds == ["REFUND_DECLINED"])
        #expect(declined.transactions.isEmpty)
        #expect(model.entitlements(of: "u1").products == [Catalog.theme])
        _ = try model.perform(.refund(transactionID: bought.payload.transactionID, percentage: nil))
        #expect(model.entitlements(of: "u1").products == [])
        let reversed = try model.perform(.reverseRefund(transactionID: bought.payload.transactionID))
        #expect(reversed.kinds == ["REFUND_REVERSED"])
        #expect(reversed.transactions.first?.payload.revocationDate == nil)
        #expect(model.entitlements(of: "u1").products == [Catalog.theme])
    }

    /// CONSUMPTION_REQUEST: Apple asks for consumption information; nothing changes
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    @Test func consumptionRequest() throws {
        var model = try ModelFixture.model()
        let bought = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins))).transactions.first)
        let request = try model.perform(.requestConsumption(transactionID: bought.payload.transactionID))
        #expect(request.kinds == ["CONSUMPTION_REQUEST"])
        #expect(request.notifications.first?.transaction?.revocationDate == nil)
        #expect(model.entitlements(of: "u1").balances[Catalog.coinsBalance] == 100)
    }

    /// Refunding a subscription's current period revokes it (status 5) and ends access; a refund of an earlier
    /// period leaves the current one active
    /// (https://developer.apple.com/documentation/appstoreservernotifications/status).
    @Test func subscriptionRefunds() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly))).transactions.first)
        let renewed = try #require(try model.advance(to: ModelFixture.monthLater).transactions.first)
        let old = try model.perform(.refund(transactionID: first.payload.transactionID, percentage: nil))
        #expect(old.kinds == ["REFUND 1"])
        #expect(model.entitlements(of: "u1").subscriptions.first?.status == "active")
        let current = try model.perform(.refund(transactionID: renewed.payload.transactionID, percentage: 50_000))
        #expect(current.kinds == ["REFUND 5"])
        #expect(current.notifications.first?.renewal?.autoRenews == false)
        #expect(model.entitlements(of: "u1").subscriptions == [])
        #expect(model.entitlements(of: "u1").features == [])
        #expect(try model.advance(to: ModelFixture.monthLater.addingTimeInterval(40 * ModelFixture.day)).isEmpty)
    }
}
