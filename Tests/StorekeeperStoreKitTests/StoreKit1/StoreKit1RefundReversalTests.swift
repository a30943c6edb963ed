import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// A refund the App Store reverses, as StoreKit 1 shows it: the receipt lists the purchase again without its
/// cancellation date, and the device gives back what the refund took.
///
/// Apple's pages, the oracle here:
/// - cancellation_date_ms: "This field is only present for purchases that Apple refunded or revoked":
///   https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms
/// - REFUND_REVERSED: "Apple reversed a previously granted refund … Reinstate content or services that were
///   revoked due to the related refund": https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
/// - Receipt Fields, "Receipt Creation Date" (12): the date the app receipt was created:
///   https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html
@Suite struct StoreKit1RefundReversalTests {
    typealias Receipt = TestAppReceipt
    static let now = StoreKit1World.now
    static let day: TimeInterval = 86_400
    static let car = StoreKit1World.rocketCar

    /// A receipt created at `created` (field 12) listing `purchases`.
    static func receipt(created: Date, _ purchases: [[UInt8]]) -> [UInt8] {
        Receipt.receipt([Receipt.attribute(12, Receipt.ia5(Receipt.text(created)))] + purchases)
    }

    @Test func aPurchaseListedAgainWithoutItsCancellationIsGivenBack() async throws {
        let bought = Self.now - 5 * Self.day, refunded = Self.now - 2 * Self.day
        let car = { (cancelled: Date?) in Receipt.purchase(product: Self.car, transaction: "1000000500", bought: bought, cancelled: cancelled) }
        let world = try StoreKit1World(receipt: FakeReceipt(bytes: Self.receipt(created: bought, [car(nil)])))
        let queue = try await world.startQueue()
        world.fake.deliver(FakeSKTransaction(StoreKit1Payment(productID: Self.car), state: .purchased, id: "1000000500", date: bought))
        try await StoreKit1World.settle(queue, world.log) { $0.contains(where: \.isRemoved) }
        #expect(await queue.entitlements().owns(Self.car))

        // Refunded: the refreshed receipt lists it canceled.
        world.receipt.state.withLock { $0.refreshed = Self.receipt(created: refunded, [car(refunded)]) }
        try await world.backend.refreshReceipt()
        await queue.refreshEntitlements()
        try await StoreKit1World.settle(queue, world.log)
        #expect(!(await queue.entitlements().owns(Self.car)))

        // The refund is reversed: a receipt created since lists it without a cancellation date.
        world.receipt.state.withLock { $0.refreshed = Self.receipt(created: Self.now - Self.day, [car(nil)]) }
        try await world.backend.refreshReceipt()
        await queue.refreshEntitlements()
        try await StoreKit1World.settle(queue, world.log)
        #expect(await queue.entitlements().owns(Self.car))
        #expect(await queue.entitlements().isUnlocked("rocket-car"))
        await queue.stop()
    }

    @Test func aReceiptOlderThanTheRefundGivesNothingBack() async throws {
        let bought = Self.now - 5 * Self.day, refunded = Self.now - 2 * Self.day
        let car = { (cancelled: Date?) in Receipt.purchase(product: Self.car, transaction: "1000000510", bought: bought, cancelled: cancelled) }
        let world = try StoreKit1World(receipt: FakeReceipt(bytes: Self.receipt(created: refunded, [car(refunded)])))
        let queue = try await world.startQueue()
        try await StoreKit1World.settle(queue, world.log)
        // A receipt written before the refund (the device's copy, say) still lists it uncanceled: it says
        // nothing of the refund, so the refund stands.
        world.receipt.state.withLock { $0.refreshed = Self.receipt(created: bought, [car(nil)]) }
        try await world.backend.refreshReceipt()
        await queue.refreshEntitlements()
        try await StoreKit1World.settle(queue, world.log)
        #expect(!(await queue.entitlements().owns(Self.car)))
        await queue.stop()
    }
}
