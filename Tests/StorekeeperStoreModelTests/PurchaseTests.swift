import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

typealias Catalog = StoreModelCatalog

@Suite struct PurchaseTests {
    /// A consumable bought three at once: one transaction of quantity 3 carrying the app account's token
    /// (https://developer.apple.com/documentation/appstoreserverapi/quantity,
    /// https://developer.apple.com/documentation/appstoreserverapi/appaccounttoken), and ONE_TIME_CHARGE without
    /// status (status is for auto-renewable subscriptions:
    /// https://developer.apple.com/documentation/appstoreservernotifications/status;
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    @Test func consumableWithQuantityAndToken() throws {
        var model = try ModelFixture.model()
        let messages = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins, quantity: 3)))
        let transaction = try #require(messages.transactions.first)
        #expect(messages.transactions.count == 1)
        #expect(transaction.appleID == "ann" && transaction.account == "u1")
        #expect(transaction.payload.quantity == 3)
        #expect(transaction.payload.type == .consumable)
        #expect(transaction.payload.ownership == .purchased)
        #expect(transaction.payload.appAccountToken == AppAccountToken.derive(fromUser: "u1"))
        #expect(transaction.payload.expiresDate == nil)
        #expect(transaction.payload.signedDate == ModelFixture.start)
        #expect(messages.kinds == ["ONE_TIME_CHARGE"])
        #expect(messages.notifications.first?.transaction == transaction.payload)
        // Signed at the clock, a millisecond after the transaction so that signedDates never tie.
        #expect(messages.notifications.first?.payload.signedDate == ModelFixture.start.addingTimeInterval(0.001))
        #expect(model.entitlements(of: "u1").balances == [Catalog.coinsBalance: 300])
        #expect(model.entitlements(of: "u1").products == [])
    }

    @Test func withoutTokenTheBuyingAccountHoldsIt() throws {
        var model = try ModelFixture.model()
        let messages = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.theme, setsAppAccountToken: false)))
        #expect(messages.transactions.first?.payload.appAccountToken == nil)
        #expect(model.entitlements(of: "u1").products == [Catalog.theme])
        #expect(model.entitlements(of: "u1").features == ["theme"])
        #expect(model.entitlements(of: "u2").products == [])
    }

    /// A non-consumable is bought once (https://developer.apple.com/documentation/storekit/product/producttype/nonconsumable);
    /// only consumables take a quantity above 1.
    @Test func refusesWhatTheStoreRefuses() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.pro)))
        #expect(throws: StoreModelError.self) { try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.pro))) }
        #expect(throws: StoreModelError.self) {
            try model.perform(.buy(Purchase(appleID: "bob", account: "u2", productID: Catalog.theme, quantity: 2)))
        }
        #expect(throws: StoreModelError.self) { try model.perform(.buy(Purchase(appleID: "bob", account: "u2", productID: "nope"))) }
        #expect(throws: StoreModelError.self) { try model.advance(to: ModelFixture.start.addingTimeInterval(-1)) }
    }

    /// A refused action leaves the model as it was (here: the Apple ID's signed-in account and the counters).
    @Test func refusalChangesNothing() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly)))
        #expect(throws: StoreModelError.self) {
            try model.perform(.buy(Purchase(appleID: "ann", account: "u2", productID: Catalog.plusMonthly)))
        }
        #expect(model.world.appleIDs["ann"]?.account == "u1")
        #expect(model.world.appleIDs["ann"]?.accounts == ["u1"])
        let next = try model.perform(.buy(Purchase(appleID: "bob", account: "u3", productID: Catalog.theme)))
        #expect(next.transactions.first?.payload.transactionID == "2000000000000002")
    }

    /// A non-renewing subscription has no expiresDate in Apple's payload
    /// (https://developer.apple.com/documentation/appstoreserverapi/expiresdate: auto-renewable only); its term is
    /// the catalog's duration (Storekeeper's rule), so it is owned for one month and then not.
    @Test func nonRenewingPassEndsAfterItsDuration() throws {
        var model = try ModelFixture.model()
        let messages = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.seasonPass)))
        #expect(messages.transactions.first?.payload.expiresDate == nil)
        #expect(messages.transactions.first?.payload.type == .nonRenewingSubscription)
        #expect(messages.kinds == ["ONE_TIME_CHARGE"])
        _ = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(-1))
        #expect(model.entitlements(of: "u1").features == ["season"])
        let later = try model.advance(to: ModelFixture.monthLater)
        #expect(later.isEmpty)
        #expect(model.entitlements(of: "u1").products == [])
    }

    /// Spends are accepted only when the balance covers them (Storekeeper's rule).
    @Test func spendsNeedTheBalance() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins)))
        #expect(model.canSpend(account: "u1", balance: Catalog.coinsBalance, amount: 100))
        #expect(!model.canSpend(account: "u1", balance: Catalog.coinsBalance, amount: 101))
        _ = try model.perform(.spend(account: "u1", balance: Catalog.coinsBalance, amount: 101))
        #expect(model.entitlements(of: "u1").balances[Catalog.coinsBalance] == 100)
        _ = try model.perform(.spend(account: "u1", balance: Catalog.coinsBalance, amount: 60))
        #expect(model.entitlements(of: "u1").balances[Catalog.coinsBalance] == 40)
    }

    /// The same actions give the same payloads (ids and UUIDs from counters).
    @Test func deterministic() throws {
        func life() throws -> [String] {
            var model = try ModelFixture.model(gracePeriodDays: 16)
            var messages = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly)))
            messages += try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins, quantity: 2)))
            messages += try model.perform(.billingFails(appleID: "ann"))
            messages += try model.advance(to: ModelFixture.monthLater.addingTimeInterval(40 * ModelFixture.day))
            // ECDSA signatures are random: compare what is signed.
            let notifications = messages.notifications.map { notification in
                var payload = notification.payload
                payload.signedTransactionInfo = nil
                payload.signedRenewalInfo = nil
                return "\(payload.json) \(notification.transaction?.json ?? .null) \(notification.renewal?.json ?? .null)"
            }
            return notifications + messages.transactions.map { "\($0.payload.json)" }
        }
        let first = try life()
        let second = try life()
        #expect(first.count > 4)
        #expect(first == second)
    }
}
