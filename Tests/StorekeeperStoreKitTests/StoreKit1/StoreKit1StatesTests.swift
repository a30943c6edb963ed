import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// Every state of every product type, through the fake payment queue, the
/// backend and the real queue with Rocket Racer's catalog.
@Suite struct StoreKit1StatesTests {
    static let types = [StoreKit1World.coins, StoreKit1World.noAds, StoreKit1World.proMonthly, StoreKit1World.seasonPass]

    @Test func aPaymentCarriesItsQuantityAndUserAndTheQueueDeliversThePurchaseBeforeFinishingIt() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        try await queue.add(Payment(productID: StoreKit1World.coins, quantity: 3, applicationUsername: "user-7"))
        #expect(world.fake.payments == [StoreKit1Payment(productID: StoreKit1World.coins, quantity: 3, applicationUsername: "user-7")])
        let transaction = try #require(world.fake.lastMade)
        try await StoreKit1World.settle(queue, world.log) { $0.count >= 2 }
        let purchasing = try #require(await world.log.updated.first)
        #expect(purchasing.info.state == .purchasing)
        #expect(purchasing.id.hasPrefix(StoreKit1TransactionRegistry.localPrefix))
        #expect(purchasing.info.receipt == nil)
        #expect(world.fake.finished.isEmpty, "a purchasing transaction is never finished")

        transaction.become(.purchased, id: "1000000001", date: StoreKit1World.now)
        world.fake.deliver(transaction)
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }
        let purchased = try #require(await world.log.updated.last)
        #expect(purchased.id == "1000000001")
        #expect(purchased.info.quantity == 3)
        #expect(purchased.info.applicationUsername == "user-7")
        #expect(purchased.info.receipt == Array("receipt-1".utf8), "the app receipt's bytes come with a purchase whose plan may read them (audit-log)")
        #expect(await queue.entitlements().balance("coins") == 1500)
        #expect(world.fake.finished == ["1000000001"])
        // `finish` came last: after every other step of the plan was told.
        let events = await world.log.events
        #expect(events.last == .removed(purchased.info))
        await queue.stop()
    }

    @Test(arguments: types)
    func everyStateOfThisProductTypeRunsItsPlanAndFinishesOnlyWhatEnds(productID: String) async throws {
        let world = try StoreKit1World(name: "states-\(productID)")
        let queue = try await world.startQueue()
        let payment = StoreKit1Payment(productID: productID, quantity: 1, applicationUsername: "user-7")
        let original = FakeSKTransaction(payment, state: .purchased, id: "9000000001", date: Date(timeIntervalSince1970: 1_700_000_000))
        var cases: [(FakeSKTransaction, TransactionState)] = [
            (FakeSKTransaction(payment, state: .purchasing), .purchasing),
            (FakeSKTransaction(payment, state: .deferred), .deferred),
            (FakeSKTransaction(payment, state: .failed, error: StoreKit1Error(domain: StoreKit1Error.storeKitDomain, code: 5)), .failed),
            (FakeSKTransaction(payment, state: .purchased, id: "1000000002", date: StoreKit1World.now), .purchased),
        ]
        // StoreKit restores non-consumables and auto-renewable subscriptions, never
        // a consumable or a non-renewing subscription ("items that are not
        // restorable": https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()).
        if productID == StoreKit1World.noAds || productID == StoreKit1World.proMonthly {
            cases.append((FakeSKTransaction(payment, state: .restored, id: "1000000003", date: StoreKit1World.now, original: original), .restored))
        }
        for (transaction, state) in cases {
            let finishedBefore = world.fake.finished.count
            world.fake.deliver(transaction)
            try await StoreKit1World.settle(queue, world.log) { events in
                events.contains { if case .updated(let t) = $0 { t.info.state == state } else { false } }
                    && (state == .purchasing || state == .deferred || events.filter(\.isRemoved).count == finishedBefore + 1)
            }
            let update = try #require(await world.log.updated.last, "\(productID) \(state)")
            #expect(update.info.state == state)
            #expect(update.info.productID == productID)
            switch state {
            case .purchasing, .deferred:
                #expect(update.id.hasPrefix(StoreKit1TransactionRegistry.localPrefix))
                #expect(world.fake.finished.count == finishedBefore, "\(state) is never finished")
            case .failed:
                #expect(update.id.hasPrefix(StoreKit1TransactionRegistry.localPrefix))
                #expect(update.info.error == .productNotAvailable)
                #expect(world.fake.finished.count == finishedBefore + 1, "a failed transaction is finished")
            case .purchased:
                #expect(update.id == "1000000002")
                // The season pass copies the receipt to iCloud; coins run the game's audit-log step.
                let read = productID == StoreKit1World.seasonPass || productID == StoreKit1World.coins
                #expect(update.info.receipt == (read ? Array("receipt-1".utf8) : nil))
                #expect(world.fake.finished.last == "1000000002")
            case .restored:
                #expect(update.id == StoreKit1TransactionRegistry.restoreKey(of: "9000000001"), "a restore is known by the purchase it restores")
                #expect(update.originalID == "9000000001", "a restore names the transaction it restores")
                #expect(update.purchaseDate == Date(timeIntervalSince1970: 1_700_000_000), "a restore is dated by its original")
                #expect(update.info.receipt == nil, "with the receipt as the record, the restored plan only finishes")
                #expect(world.fake.finished.last == "1000000003")
            }
        }
        #expect(await world.log.errorsShown == [.productNotAvailable])
        #expect(await queue.pending().isEmpty)
        // What the purchase delivered, by type.
        let entitlements = await queue.entitlements()
        switch productID {
        case StoreKit1World.coins: #expect(entitlements.balance("coins") == 500, "a consumable is granted once")
        case StoreKit1World.noAds: #expect(entitlements.owns(productID) && entitlements.isUnlocked("ad-free"))
        case StoreKit1World.proMonthly: #expect(entitlements.activeSubscriptions.map(\.productID) == [productID])
        default: #expect(entitlements.owns(productID) && entitlements.isUnlocked("season-events"))
        }
        await queue.stop()
    }

    @Test func twoFailuresAreTwoTransactionsAndEachPresentsItsError() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        let payment = StoreKit1Payment(productID: StoreKit1World.noAds)
        let denied = StoreKit1Error(domain: StoreKit1Error.storeKitDomain, code: 4)
        let first = FakeSKTransaction(payment, state: .failed, error: denied)
        let second = FakeSKTransaction(payment, state: .failed, error: denied)
        world.fake.deliver(first)
        world.fake.deliver(second)
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRemoved).count == 2 }
        #expect(await world.log.errorsShown == [.paymentNotAllowed, .paymentNotAllowed])
        let ids = await world.log.updated.map(\.id)
        #expect(Set(ids).count == 2, "each failure has its own identifier: \(ids)")
        #expect(world.fake.calls.withLock { Set($0.finishedObjects) } == [ObjectIdentifier(first), ObjectIdentifier(second)])
        await queue.stop()
    }

    @Test func aCancelledPaymentIsFinishedQuietlyAndAFailureWithoutAnErrorIsUnknown() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        let payment = StoreKit1Payment(productID: StoreKit1World.coins)
        world.fake.deliver(FakeSKTransaction(payment, state: .failed, error: StoreKit1Error(domain: StoreKit1Error.storeKitDomain, code: 2)))
        world.fake.deliver(FakeSKTransaction(payment, state: .failed))
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRemoved).count == 2 }
        // Rocket Racer's quiet-cancel rule: a cancelled payment shows nothing.
        #expect(await world.log.errorsShown == [.unknown])
        #expect(await world.log.updated.map(\.info.error) == [.paymentCancelled, .unknown])
        await queue.stop()
    }
}
