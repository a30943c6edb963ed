import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// When an auto-renewable subscription bought or restored through StoreKit 1
/// ends: the app receipt's Subscription Expiration Date (field 1708) of the
/// entry for the transaction's own identifier (field 1703), as Apple's
/// Receipt Fields page defines them; a new identifier for every renewal and
/// restore, so a restore's is its own, not its original's:
/// https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html
/// The catalog's period counts only when the receipt has no entry.
@Suite struct StoreKit1SubscriptionEndTests {
    typealias Receipt = TestAppReceipt
    static let now = StoreKit1World.now
    static let day: TimeInterval = 86_400
    static let pro = StoreKit1World.proMonthly

    /// Delivers `transaction` on a device whose receipt lists `purchases`; returns the update the queue saw and its entitlements.
    static func deliver(_ transaction: FakeSKTransaction, receipt purchases: [[UInt8]]?, name: String = #function)
        async throws -> (StoreTransaction, Entitlements) {
        let world = try StoreKit1World(name: name, receipt: FakeReceipt(bytes: purchases.map { Receipt.receipt($0) } ?? Array("receipt-1".utf8)))
        let queue = try await world.startQueue()
        world.fake.deliver(transaction)
        try await StoreKit1World.settle(queue, world.log) { $0.contains(where: \.isRemoved) }
        let update = try #require(await world.log.updated.last)
        let entitlements = await queue.entitlements()
        await queue.stop()
        return (update, entitlements)
    }

    @Test func aOneWeekFreeTrialEndsAfterAWeekNotAfterTheCatalogsMonth() async throws {
        // Rocket Racer's Pro Monthly has a one-week free trial (P1W) before its monthly period.
        let bought = Self.now - 2 * Self.day, trialEnds = Self.now + 5 * Self.day
        let (update, entitlements) = try await Self.deliver(
            FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .purchased, id: "1000000500", date: bought),
            receipt: [Receipt.purchase(product: Self.pro, transaction: "1000000500", bought: bought, expires: trialEnds)])
        #expect(update.expirationDate == trialEnds)
        #expect(entitlements.activeSubscriptions.map(\.expirationDate) == [trialEnds])
    }

    @Test func aSandboxRenewalEndsWhenTheReceiptSaysNotAMonthLater() async throws {
        // In the sandbox a month lasts five minutes: this renewal ended five minutes ago.
        let bought = Self.now - 600, ended = Self.now - 300
        let (update, entitlements) = try await Self.deliver(
            FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .purchased, id: "1000000510", date: bought),
            receipt: [Receipt.purchase(product: Self.pro, transaction: "1000000510", bought: bought, expires: ended)])
        #expect(update.expirationDate == ended)
        #expect(entitlements.activeSubscriptions.isEmpty && !entitlements.owns(Self.pro))
    }

    @Test func aRestoredRenewalEndsWhenItsOwnEntrySaysNotAMonthAfterItsOriginal() async throws {
        // The chain began in 2023 (…520); the restore (…523) is of this month's renewal.
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        let original = FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .purchased, id: "1000000520", date: started)
        let restore = FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .restored, id: "1000000523", date: Self.now,
                                        original: original)
        let ends = Self.now + 27 * Self.day
        let (update, entitlements) = try await Self.deliver(restore, receipt: [
            Receipt.purchase(product: Self.pro, transaction: "1000000520", bought: started, expires: started + 30 * Self.day),
            Receipt.purchase(product: Self.pro, transaction: "1000000523", bought: Self.now - 3 * Self.day, original: "1000000520", expires: ends),
        ])
        #expect(update.purchaseDate == started, "a restore is still dated by its original")
        #expect(update.expirationDate == ends, "its end is its own entry's, not a period after its original")
        #expect(entitlements.activeSubscriptions.map(\.expirationDate) == [ends])
    }

    @Test func aRenewalBelongsToItsSubscriptionByTheReceiptsOriginalTransactionIdentifier() async throws {
        // A renewal is a new transaction on the payment queue with no `original` (only a restore has one:
        // https://developer.apple.com/documentation/storekit/skpaymenttransaction/original); the receipt's
        // Original Transaction Identifier (field 1705) names its subscription, so that the queue counts
        // only the subscription's latest period (a refund of an older one reversed later gives nothing).
        let started = Self.now - 40 * Self.day, renewed = Self.now - 10 * Self.day
        let (update, _) = try await Self.deliver(
            FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .purchased, id: "1000000551", date: renewed),
            receipt: [
                Receipt.purchase(product: Self.pro, transaction: "1000000550", bought: started, expires: started + 30 * Self.day),
                Receipt.purchase(product: Self.pro, transaction: "1000000551", bought: renewed, original: "1000000550", expires: renewed + 30 * Self.day),
            ])
        #expect(update.originalID == "1000000550")
        #expect(update.purchaseDate == renewed, "a renewal is dated by itself, not its original (that is a restore's rule)")
    }

    @Test func aRestoredPeriodBelongsToItsSubscriptionNotToThePeriodItRestores() async throws {
        // A crossgrade to yearly (…561) continues the monthly subscription begun by …560: the receipt gives
        // both periods, and the restore of the yearly one, …560 as Original Transaction Identifier (field 1705).
        // A restore's `original` is the period restored (…561), not the subscription's first
        // (https://developer.apple.com/documentation/storekit/skpaymenttransaction/original), so the queue
        // would count the restored yearly period apart from the monthly one it superseded, and own both.
        let started = Self.now - 5 * Self.day, crossgraded = Self.now - 3 * Self.day
        let yearly = FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .purchased, id: "1000000561", date: crossgraded)
        let restore = FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .restored, id: "1000000562", date: Self.now,
                                        original: yearly)
        let (update, _) = try await Self.deliver(restore, receipt: [
            Receipt.purchase(product: Self.pro, transaction: "1000000560", bought: started, expires: started + 30 * Self.day),
            Receipt.purchase(product: Self.pro, transaction: "1000000561", bought: crossgraded, original: "1000000560",
                             expires: crossgraded + 365 * Self.day),
            Receipt.purchase(product: Self.pro, transaction: "1000000562", bought: crossgraded, original: "1000000560",
                             expires: crossgraded + 365 * Self.day),
        ])
        #expect(update.originalID == "1000000560")
        #expect(update.purchaseDate == crossgraded, "a restore is dated by the period it restores")
    }

    @Test func theReceiptListsOnlyTheLatestPeriodOfEachSubscription() async throws {
        // A crossgrade to another level (…571) supersedes the period before it (…570) of the same
        // subscription (the receipt's Original Transaction Identifier, field 1705), as StoreKit 2's
        // currentEntitlements gives "the latest transaction for each auto-renewable subscription"
        // (https://developer.apple.com/documentation/storekit/transaction/currententitlements); the earlier
        // level is not owned until its own end. With the later one refunded (cancellation_date, field 1712)
        // the earlier one is the latest that stands.
        let started = Self.now - 5 * Self.day, crossgraded = Self.now - 3 * Self.day
        let monthly = Receipt.purchase(product: Self.pro, transaction: "1000000570", bought: started, expires: started + 30 * Self.day)
        let yearly = { (cancelled: Date?) in
            Receipt.purchase(product: Self.pro, transaction: "1000000571", bought: crossgraded, original: "1000000570",
                             expires: crossgraded + 365 * Self.day, cancelled: cancelled)
        }
        let receipt = { (purchases: [[UInt8]]) in FakeReceipt(bytes: Receipt.receipt(purchases)) }
        let current = try StoreKit1World(name: #function + "-current", receipt: receipt([monthly, yearly(nil)]))
        #expect(await current.backend.receiptEntries().map(\.transactionID) == ["1000000571"])
        let refunded = try StoreKit1World(name: #function + "-refunded", receipt: receipt([monthly, yearly(Self.now - Self.day)]))
        #expect(await refunded.backend.receiptEntries().map(\.transactionID) == ["1000000570"])
    }

    @Test func withoutAReceiptEntryTheCatalogsPeriodCountsFromThePurchase() async throws {
        let bought = Self.now - 2 * Self.day
        let transaction = { FakeSKTransaction(StoreKit1Payment(productID: Self.pro), state: .purchased, id: "1000000530", date: bought) }
        let monthLater = try #require(SubscriptionTerm.add("P1M", to: bought))
        // A receipt that lists other purchases only, and one that cannot be read.
        for purchases in [[Receipt.purchase(product: StoreKit1World.noAds, transaction: "1000000531", bought: bought)], nil] {
            let (update, entitlements) = try await Self.deliver(transaction(), receipt: purchases)
            #expect(update.expirationDate == nil, "the store said nothing")
            #expect(entitlements.activeSubscriptions.map(\.expirationDate) == [monthLater])
        }
    }

    @Test func onlyAutoRenewableSubscriptionsTakeTheReceiptsEnd() async throws {
        // A non-consumable never ends, whatever a receipt entry carries.
        let bought = Self.now - 2 * Self.day
        let (update, entitlements) = try await Self.deliver(
            FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.noAds), state: .purchased, id: "1000000540", date: bought),
            receipt: [Receipt.purchase(product: StoreKit1World.noAds, transaction: "1000000540", bought: bought, expires: Self.now - Self.day)])
        #expect(update.expirationDate == nil)
        #expect(entitlements.owns(StoreKit1World.noAds))
    }
}
