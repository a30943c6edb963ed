import Foundation
import StorekeeperDeviceLives
import StorekeeperRuntime
import StorekeeperStoreKit
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// The model-driven StoreKit 2 keeps StoreKit's documented rules: each expectation below is Apple's, cited,
/// never what the backend happens to do.
@Suite struct ModelStoreKit2DeviceTests {
    /// A model with one Apple ID, and the transactions its actions send that Apple ID's device.
    struct World {
        var model: StoreModel
        let appleID = "apple-id-1"
        let account = "account-1"

        init() throws {
            let fixture = try DeviceLivesFixture.world.get()
            model = StoreModel(policy: fixture.policy, configuration: fixture.modelConfiguration)
            _ = try model.perform(.signIn(appleID: appleID, account: account))
        }

        mutating func send(_ action: StoreAction) throws -> [DeviceTransaction] {
            try model.perform(action).compactMap { if case .transaction(let transaction) = $0 { transaction } else { nil } }
        }

        mutating func buy(_ productID: String) throws -> DeviceTransaction {
            let sent = try send(.buy(Purchase(appleID: appleID, account: account, productID: productID)))
            return try #require(sent.first { $0.payload.productID == productID })
        }
    }

    static func ids(_ updates: [StoreKit2Verification]) -> [String] { updates.map { String($0.transaction.id) } }

    /// Reads `count` updates from a launch's stream (the listener's side), then nothing more is waited for.
    static func take(_ count: Int, from stream: AsyncStream<StoreKit2Verification>) async -> [StoreKit2Verification] {
        var iterator = stream.makeAsyncIterator()
        var taken: [StoreKit2Verification] = []
        while taken.count < count, let update = await iterator.next() { taken.append(update) }
        return taken
    }

    /// "If your app has unfinished transactions, the updates listener receives them once, immediately after the
    /// app launches" (https://developer.apple.com/documentation/storekit/transaction/updates); `unfinished`
    /// lists them until `finish()` (https://developer.apple.com/documentation/storekit/transaction/unfinished);
    /// a finished one is not replayed at the next launch.
    @Test func unfinishedTransactionsAreReplayedOnceAtEachLaunchUntilFinished() async throws {
        var world = try World()
        let device = ModelStoreKit2Device(appleID: world.appleID, products: try DeviceLivesFixture.world.get().policy.products)
        let coins = try world.buy(StoreModelCatalog.coins)
        let pro = try world.buy(StoreModelCatalog.pro)
        // Both arrive while the app is not running.
        await device.receive(coins)
        await device.receive(pro)
        #expect(await device.isRunning == false)

        await device.launch()
        let replay = await Self.take(2, from: device.updates())
        #expect(Self.ids(replay) == [coins.payload.transactionID, pro.payload.transactionID])
        #expect(Self.ids(await device.unfinished()) == [coins.payload.transactionID, pro.payload.transactionID])

        await replay[0].transaction.finish()
        #expect(Self.ids(await device.unfinished()) == [pro.payload.transactionID])
        await device.quit()

        await device.launch()
        let second = await Self.take(1, from: device.updates())
        #expect(Self.ids(second) == [pro.payload.transactionID], "only the transaction still unfinished is replayed")
        await device.quit()
    }

    /// A refund of a finished transaction does not make it unfinished again (`unfinished` is what the app has not
    /// finished: https://developer.apple.com/documentation/storekit/transaction/unfinished), and the refunded
    /// product leaves `currentEntitlements` ("Products that the App Store has refunded or revoked don't appear":
    /// https://developer.apple.com/documentation/storekit/transaction/currententitlements); consumables never appear there.
    @Test func aRefundLeavesTheEntitlementsWithoutReopeningTheTransaction() async throws {
        var world = try World()
        let device = ModelStoreKit2Device(appleID: world.appleID, products: try DeviceLivesFixture.world.get().policy.products)
        await device.launch()
        let coins = try world.buy(StoreModelCatalog.coins)
        let pro = try world.buy(StoreModelCatalog.pro)
        await device.receive(coins)
        await device.receive(pro)
        let delivered = await Self.take(2, from: device.updates())
        for update in delivered { await update.transaction.finish() }
        #expect(Self.ids(await device.currentEntitlements()) == [pro.payload.transactionID], "a non-consumable, not the consumable")

        let refund = try world.send(.refund(transactionID: pro.payload.transactionID, percentage: nil))
        let refunded = try #require(refund.first { $0.payload.transactionID == pro.payload.transactionID })
        #expect(refunded.payload.revocationDate != nil)
        await device.receive(refunded)
        #expect(await device.currentEntitlements().isEmpty)
        #expect(await device.unfinished().isEmpty)
        await device.quit()
    }

    /// A purchase is answered with the model's transaction (`Product.purchase(options:)`:
    /// https://developer.apple.com/documentation/storekit/product/purchase(options:)); one the model never made is
    /// refused and counted as a violation, never invented.
    @Test func aPurchaseIsAnsweredWithTheModelsTransactionOnly() async throws {
        var world = try World()
        let device = ModelStoreKit2Device(appleID: world.appleID, products: try DeviceLivesFixture.world.get().policy.products)
        await device.launch()
        let theme = try world.buy(StoreModelCatalog.theme)
        await device.expectPurchase(theme)
        let result = try await device.purchase(productID: StoreModelCatalog.theme, quantity: 1, appAccountToken: theme.payload.appAccountToken,
                                               offer: nil)
        guard case .success(.verified(let transaction)) = result else {
            Issue.record("expected a verified transaction, got \(result)")
            return
        }
        #expect(String(transaction.id) == theme.payload.transactionID)
        #expect(await device.violations.isEmpty)

        await #expect(throws: StoreKit2Failure.self) {
            _ = try await device.purchase(productID: StoreModelCatalog.pro, quantity: 1, appAccountToken: nil, offer: nil)
        }
        #expect(await device.violations.count == 1)
        await device.quit()
    }

    /// Unverified, then verified: `VerificationResult.unverified` until StoreKit can verify it
    /// (https://developer.apple.com/documentation/storekit/verificationresult), then the same transaction verified.
    @Test func aTransactionGivenUnverifiedIsGivenAgainVerified() async throws {
        var world = try World()
        let device = ModelStoreKit2Device(appleID: world.appleID, products: try DeviceLivesFixture.world.get().policy.products)
        await device.launch()
        let pro = try world.buy(StoreModelCatalog.pro)
        await device.receive(pro, unverified: true)
        await device.verifyHeld()
        let updates = await Self.take(2, from: device.updates())
        guard updates.count == 2, case .unverified = updates[0], case .verified = updates[1] else {
            Issue.record("expected unverified then verified, got \(updates)")
            return
        }
        #expect(Self.ids(updates) == [pro.payload.transactionID, pro.payload.transactionID])
        await device.quit()
    }
}
