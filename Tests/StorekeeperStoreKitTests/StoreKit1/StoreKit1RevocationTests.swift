import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// Purchases the App Store takes back, through the fake payment queue, the
/// backend and the real queue: the receipt's Cancellation Date (field 1712),
/// and `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`.
///
/// Apple's pages, the oracle here:
/// - Receipt Fields, "Cancellation Date" (1712), "Original Transaction Identifier" (1705):
///   https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html
///   (a canceled purchase is treated as though it had never been made);
/// - cancellation_date_ms: "A canceled in-app purchase remains in the receipt indefinitely":
///   https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms
/// - the observer method, called "whenever App Store revokes in-app purchases for a family member based on
///   changes in Family Sharing, or when the purchaser gets a refund for an in-app purchase":
///   https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)
@Suite struct StoreKit1RevocationTests {
    typealias Receipt = TestAppReceipt
    static let now = StoreKit1World.now
    static let day: TimeInterval = 86_400
    static let pro = StoreKit1World.proMonthly
    static let car = StoreKit1World.rocketCar

    /// A device whose receipt lists `purchases`, with `delivered` purchased through StoreKit and finished.
    static func device(_ name: String = #function, receipt purchases: [[UInt8]], delivered: [FakeSKTransaction])
        async throws -> (StoreKit1World, TransactionQueue) {
        let world = try StoreKit1World(name: name, receipt: FakeReceipt(bytes: Receipt.receipt(purchases)))
        let queue = try await world.startQueue()
        for transaction in delivered { world.fake.deliver(transaction) }
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRemoved).count == delivered.count }
        return (world, queue)
    }

    /// A revoked transaction's identifier, then the identifier the queue knows
    /// a restore of it by: the restore goes with the purchase it restored.
    static func withRestores(_ id: String) -> [String] { [id, StoreKit1TransactionRegistry.restoreKey(of: id)] }

    static func purchased(_ productID: String, _ id: String, at date: Date) -> FakeSKTransaction {
        FakeSKTransaction(StoreKit1Payment(productID: productID), state: .purchased, id: id, date: date)
    }

    @Test func aCanceledPurchaseInARefreshedReceiptRevokesThatTransactionAlone() async throws {
        // Rocket Car, and two months of Pro: last month (…401) and this one (…402), a renewal of it.
        let lastMonth = Self.now - 40 * Self.day, thisMonth = Self.now - 10 * Self.day
        let (world, queue) = try await Self.device(receipt: [
            Receipt.purchase(product: Self.car, transaction: "1000000400", bought: Self.now - 5 * Self.day),
            Receipt.purchase(product: Self.pro, transaction: "1000000401", bought: lastMonth, expires: thisMonth),
            Receipt.purchase(product: Self.pro, transaction: "1000000402", bought: thisMonth, original: "1000000401", expires: Self.now + 20 * Self.day),
        ], delivered: [
            Self.purchased(Self.car, "1000000400", at: Self.now - 5 * Self.day),
            Self.purchased(Self.pro, "1000000401", at: lastMonth),
            Self.purchased(Self.pro, "1000000402", at: thisMonth),
        ])
        #expect(await queue.entitlements().isUnlocked("rocket-car"))

        // Rocket Car refunded, and last month of Pro: the refreshed receipt lists both as canceled.
        let carRefunded = Self.now - Self.day, proRefunded = Self.now - 2 * Self.day
        world.receipt.state.withLock {
            $0.refreshed = Receipt.receipt([
                Receipt.purchase(product: Self.car, transaction: "1000000400", bought: Self.now - 5 * Self.day, cancelled: carRefunded),
                Receipt.purchase(product: Self.pro, transaction: "1000000401", bought: lastMonth, expires: thisMonth, cancelled: proRefunded),
                Receipt.purchase(product: Self.pro, transaction: "1000000402", bought: thisMonth, original: "1000000401",
                                 expires: Self.now + 20 * Self.day),
            ])
        }
        try await world.backend.refreshReceipt()
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRevoked).count == 2 }

        #expect(await world.log.revocations == [
            StoreRevocation(productID: Self.car, transactionIDs: Self.withRestores("1000000400"), reason: .refund, date: carRefunded),
            StoreRevocation(productID: Self.pro, transactionIDs: Self.withRestores("1000000401"), reason: .refund, date: proRefunded),
        ])
        let entitlements = await queue.entitlements()
        #expect(!entitlements.owns(Self.car) && !entitlements.isUnlocked("rocket-car"), "as though it had never been bought")
        // Refunding last month does not end this month, which was paid for.
        #expect(entitlements.activeSubscriptions.map(\.productID) == [Self.pro])
        #expect(entitlements.isUnlocked("pro-garage"))
        await queue.stop()
    }

    @Test func aPurchaseTheReceiptListsAsCanceledDeliversNothingWhenStoreKitDeliversIt() async throws {
        // Refunded before the app finished it (it crashed, say): StoreKit delivers it
        // again, with a receipt that lists it as canceled.
        let (world, queue) = try await Self.device(receipt: [
            Receipt.purchase(product: Self.car, transaction: "1000000410", bought: Self.now - 3 * Self.day, cancelled: Self.now - Self.day),
        ], delivered: [])
        world.fake.deliver(Self.purchased(Self.car, "1000000410", at: Self.now - 3 * Self.day))
        try await StoreKit1World.settle(queue, world.log) { !$0.filter { if case .ignored = $0 { true } else { false } }.isEmpty }
        #expect(await world.log.revocations.map(\.transactionIDs) == [Self.withRestores("1000000410")])
        #expect(await world.log.ignored == [.revoked])
        #expect(!(await queue.entitlements().owns(Self.car)))
        #expect(world.fake.finished == ["1000000410"], "finished: there is nothing left to deliver")
        await queue.stop()
    }

    @Test func familySharingStoppedTakesBackWhatTheRefreshedReceiptNoLongerLists() async throws {
        // Pro, shared by a family member (…420), and Rocket Car, bought by the user (…421).
        let (world, queue) = try await Self.device(receipt: [
            Receipt.purchase(product: Self.pro, transaction: "1000000420", bought: Self.now - 3 * Self.day, expires: Self.now + 27 * Self.day),
            Receipt.purchase(product: Self.car, transaction: "1000000421", bought: Self.now - 3 * Self.day),
        ], delivered: [
            Self.purchased(Self.pro, "1000000420", at: Self.now - 3 * Self.day),
            Self.purchased(Self.car, "1000000421", at: Self.now - 3 * Self.day),
        ])
        #expect(await queue.entitlements().activeSubscriptions.map(\.productID) == [Self.pro])

        // The family member stops sharing Pro: the App Store's receipt no longer lists it.
        world.receipt.state.withLock {
            $0.refreshed = Receipt.receipt([Receipt.purchase(product: Self.car, transaction: "1000000421", bought: Self.now - 3 * Self.day)])
        }
        await world.fake.revokeEntitlements(for: [Self.pro])
        try await StoreKit1World.settle(queue, world.log) { $0.contains(where: \.isRevoked) }

        #expect(world.receipt.state.withLock { $0.refreshes } == 1, "the receipt is refreshed to see which purchases went")
        let revocations = await world.log.revocations
        #expect(revocations.map(\.productID) == [Self.pro])
        #expect(revocations.map(\.transactionIDs) == [Self.withRestores("1000000420")])
        #expect(revocations.map(\.reason) == [.familySharing])
        let entitlements = await queue.entitlements()
        #expect(entitlements.activeSubscriptions.isEmpty && !entitlements.isUnlocked("pro-garage"))
        #expect(entitlements.owns(Self.car), "a product StoreKit did not name stands")
        await queue.stop()
    }

    @Test func aRefundOfOnePeriodReportedByProductTakesBackThatPeriodAlone() async throws {
        let lastMonth = Self.now - 40 * Self.day, thisMonth = Self.now - 10 * Self.day
        let periods = { (cancelled: Date?) in [
            Receipt.purchase(product: Self.pro, transaction: "1000000430", bought: lastMonth, expires: thisMonth, cancelled: cancelled),
            Receipt.purchase(product: Self.pro, transaction: "1000000431", bought: thisMonth, original: "1000000430", expires: Self.now + 20 * Self.day),
        ] }
        let (world, queue) = try await Self.device(receipt: periods(nil), delivered: [
            Self.purchased(Self.pro, "1000000430", at: lastMonth), Self.purchased(Self.pro, "1000000431", at: thisMonth),
        ])
        world.receipt.state.withLock { $0.refreshed = Receipt.receipt(periods(Self.now - Self.day)) }
        await world.fake.revokeEntitlements(for: [Self.pro])
        try await StoreKit1World.settle(queue, world.log) { $0.contains(where: \.isRevoked) }

        #expect(await world.log.revocations == [
            StoreRevocation(productID: Self.pro, transactionIDs: Self.withRestores("1000000430"), reason: .refund, date: Self.now - Self.day),
        ])
        let active = await queue.entitlements().activeSubscriptions
        #expect(active.map(\.productID) == [Self.pro] && active.map(\.expirationDate) == [Self.now + 20 * Self.day],
                "the period still listed stands: \(active)")
        await queue.stop()
    }

    @Test func whenTheReceiptCannotBeRefreshedEveryPurchaseOfANamedProductIsTakenBackButNoConsumable() async throws {
        let (world, queue) = try await Self.device(receipt: [
            Receipt.purchase(product: Self.car, transaction: "1000000440", bought: Self.now - 3 * Self.day),
        ], delivered: [
            Self.purchased(Self.car, "1000000440", at: Self.now - 3 * Self.day),
            Self.purchased(StoreKit1World.coins, "1000000441", at: Self.now - 2 * Self.day),
        ])
        world.receipt.state.withLock { $0.refreshFailure = .transient("the App Store request failed: offline") }
        await world.fake.revokeEntitlements(for: [Self.car, StoreKit1World.coins])
        try await StoreKit1World.settle(queue, world.log) { $0.contains(where: \.isRevoked) }

        // StoreKit said the user is no longer entitled to Rocket Car; nothing finer can be known.
        #expect(await world.log.revocations.map(\.transactionIDs) == [Self.withRestores("1000000440")])
        let entitlements = await queue.entitlements()
        #expect(!entitlements.owns(Self.car))
        // A consumable cannot be shared with the family, and its absence from a receipt proves nothing.
        #expect(entitlements.balance("coins") == 500)
        await queue.stop()
    }

    @Test func afterARelaunchTheReceiptOnTheDeviceNamesWhatEarlierLaunchesDelivered() async throws {
        let bought = [Receipt.purchase(product: Self.car, transaction: "1000000450", bought: Self.now - 3 * Self.day)]
        let (first, queue) = try await Self.device(receipt: bought, delivered: [Self.purchased(Self.car, "1000000450", at: Self.now - 3 * Self.day)])
        await queue.stop()

        // The next launch delivers nothing (the purchase was finished); then Family Sharing stops.
        let second = try StoreKit1World(folder: first.folder, receipt: FakeReceipt(bytes: Receipt.receipt(bought), refreshed: Receipt.receipt([])))
        let relaunched = try await second.startQueue()
        #expect(await relaunched.entitlements().owns(Self.car))
        await second.fake.revokeEntitlements(for: [Self.car])
        try await StoreKit1World.settle(relaunched, second.log) { $0.contains(where: \.isRevoked) }
        #expect(await second.log.revocations.map(\.transactionIDs) == [Self.withRestores("1000000450")])
        #expect(!(await relaunched.entitlements().owns(Self.car)))
        await relaunched.stop()
    }

    @Test func aRestoreAnEarlierLaunchDeliveredGoesWhenFamilySharingStops() async throws {
        // A restore of Rocket Car (its own id …471, its original …470), which the
        // receipt lists with its original (1705): "for a transaction that
        // restores a previous transaction, the transaction identifier of the
        // original transaction" (Receipt Fields, above).
        let restored = [Receipt.purchase(product: Self.car, transaction: "1000000471", bought: Self.now - 300 * Self.day, original: "1000000470")]
        let first = try StoreKit1World(receipt: FakeReceipt(bytes: Receipt.receipt(restored)))
        let queue = try await first.startQueue()
        let original = Self.purchased(Self.car, "1000000470", at: Self.now - 300 * Self.day)
        first.fake.deliver(FakeSKTransaction(StoreKit1Payment(productID: Self.car), state: .restored, id: "1000000471", date: Self.now,
                                             original: original))
        try await StoreKit1World.settle(queue, first.log) { $0.contains { $0.isRemoved } }
        #expect(await queue.entitlements().isUnlocked("rocket-car"))
        await queue.stop()

        let second = try StoreKit1World(folder: first.folder, receipt: FakeReceipt(bytes: Receipt.receipt(restored), refreshed: Receipt.receipt([])))
        let relaunched = try await second.startQueue()
        await second.fake.revokeEntitlements(for: [Self.car])
        try await StoreKit1World.settle(relaunched, second.log) { $0.contains(where: \.isRevoked) }
        #expect(await second.log.revocations.flatMap(\.transactionIDs).contains(StoreKit1TransactionRegistry.restoreKey(of: "1000000470")))
        #expect(!(await relaunched.entitlements().isUnlocked("rocket-car")), "the restore is taken back with what it restored")
        await relaunched.stop()
    }

    @Test func aRestoreStillListedUnderItsOriginalStands() throws {
        // A refreshed receipt may list a restored purchase under its original's
        // identifier (1705): the restore (…461) is still held.
        let restored = StoreKit1HeldTransaction(id: "1000000461", originalID: "1000000460")
        let refreshed = try AppReceiptPayload(receipt: Receipt.receipt([
            Receipt.purchase(product: Self.car, transaction: "1000000460", bought: Self.now - 300 * Self.day),
        ]))
        #expect(StoreKit1Backend.revokedTransactions(of: Self.car, held: [restored], before: nil, refreshed: refreshed).isEmpty)
        let gone = try AppReceiptPayload(receipt: Receipt.receipt([]))
        #expect(StoreKit1Backend.revokedTransactions(of: Self.car, held: [restored], before: nil, refreshed: gone) == ["1000000461"])
    }
}

extension StoreKit1World.Log {
    /// The revocations the queue told, in order.
    var revocations: [StoreRevocation] { events.compactMap { if case .revoked(let revocation) = $0 { revocation } else { nil } } }
}

extension QueueEvent {
    var isRevoked: Bool { if case .revoked = self { true } else { false } }
}
