import Foundation
import StorekeeperDeviceLives
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// What StoreKit 1 cannot tell a device, each against its Apple page (docs/device-lives.md, "What StoreKit 1
/// cannot know"), and the device agreeing with the projection, not with what it cannot know.
@Suite struct StoreKit1ProjectionTests {
    typealias Harness = StoreKit1FakeHarness

    /// A consumable's refund never reaches StoreKit 1: "cancellation_date … is present only if the refund or
    /// revocation was for a non-consumable product, an auto-renewable subscription, or a non-renewing subscription".
    /// https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms
    @Test func aConsumablesRefundStaysOnTheDevice() async throws {
        let harness = try Harness()
        try await harness.launch("ann")
        let bought = try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.coins, quantity: 2)))
        let id = try #require(bought.compactMap { if case .transaction(let t) = $0 { t.payload.transactionID } else { nil } }.first)
        try await harness.perform(.refund(transactionID: id, percentage: 25_000))
        let device = try harness.device("ann")
        try await device.backend?.refreshReceipt()
        await device.queue?.refreshEntitlements()
        try await harness.settle()

        let model = harness.model.entitlements(of: "ann")
        #expect(model.balances[StoreModelCatalog.coinsBalance] == 150, "the model takes back a quarter of 200")
        let projected = StoreKit1Projection.expected(model, of: "ann", in: harness.model, policy: harness.policy)
        #expect(projected.balances[StoreModelCatalog.coinsBalance] == 200)
        let actual = try await harness.entitlements("ann")
        #expect(ComparedEntitlements(device: actual, policy: harness.policy) == ComparedEntitlements(model: projected))
        #expect(ComparedEntitlements(device: actual, policy: harness.policy) != ComparedEntitlements(model: model))
    }

    /// No grace period in StoreKit 1: the receipt's in-app fields have none; `grace_period_expires_date` is in
    /// `pending_renewal_info` of the App Store's answer to a server.
    /// https://developer.apple.com/documentation/appstorereceipts/grace_period_expires_date
    @Test func aGracePeriodEndsAtTheReceiptsExpiry() async throws {
        let harness = try Harness(gracePeriodDays: 16)
        try await harness.launch("ann")
        try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.premiumMonthly)))
        try await harness.perform(.billingFails(appleID: "ann"))
        try await harness.advance(days: 33)

        let model = harness.model.entitlements(of: "ann")
        #expect(model.subscriptions.map(\.status) == ["grace-period"])
        #expect(model.products == [StoreModelCatalog.premiumMonthly])
        let projected = StoreKit1Projection.expected(model, of: "ann", in: harness.model, policy: harness.policy)
        #expect(projected.subscriptions.isEmpty && projected.products.isEmpty && projected.features.isEmpty)
        let device = try harness.device("ann")
        try await device.backend?.refreshReceipt()
        await device.queue?.refreshEntitlements()
        try await harness.settle()
        let actual = try await harness.entitlements("ann")
        #expect(ComparedEntitlements(device: actual, policy: harness.policy) == ComparedEntitlements(model: projected))
    }

    /// Where the device spent what a refund it could not see had taken, its balance is its own: the difference
    /// is kept, and a later checkpoint expects it.
    @Test func aSpendOnlyTheDeviceAcceptedStaysInItsBalance() throws {
        let harness = try Harness()
        var model = harness.model
        _ = try model.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.coins)))
        let id = try #require(model.world.transactionIDs(heldBy: "ann").first)
        _ = try model.perform(.refund(transactionID: id, percentage: nil))
        #expect(!model.canSpend(account: "ann", balance: StoreModelCatalog.coinsBalance, amount: 30))
        let before = StoreKit1Projection.deviceNet(model.entitlements(of: "ann"), of: "ann", in: model, policy: harness.policy)
        #expect(before[StoreModelCatalog.coinsBalance] == 100, "the device never saw the refund")
        let after = StoreKit1Projection.expected(model.entitlements(of: "ann"), of: "ann", in: model, policy: harness.policy,
                                                 spendDifference: [StoreModelCatalog.coinsBalance: 30])
        #expect(after.balances[StoreModelCatalog.coinsBalance] == 70)
        #expect(after.owed[StoreModelCatalog.coinsBalance] == nil)
    }
}
