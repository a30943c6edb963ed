import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// A purchase the app first sees already refunded (it failed verification until the refund, or it was
/// refunded before the app next ran): what was not refunded stands. Found by the device's random lives
/// (docs/device-lives.md, "Disagreements found", seed 367).
@Suite struct StoreKit2RefundFirstSeenTests {
    typealias H = StoreKit2Harness

    @Test func aPurchaseFirstSeenAlreadyRefundedInPartGrantsWhatWasNotRefunded() async throws {
        // revocationPercentage: "The percentage of the transaction amount that
        // the App Store has refunded or revoked"; "if 1 of 3 items was refunded,
        // the value would be approximately 33.333"
        // (https://developer.apple.com/documentation/storekit/transaction/revocationpercentage):
        // the other two were paid for, however late the app first sees the
        // purchase (it failed verification until the refund, or the app did not
        // run). A full refund first seen leaves nothing paid for: nothing granted.
        let h = try H()
        let app = try await h.launch()
        let paid = await h.fake.transaction(H.coins, type: .consumable, quantity: 3)
        await h.fake.emit(.verified(paid))
        await app.queue.whenIdle()
        let pack = await app.queue.entitlements().balance("coins")
        try #require(pack > 0)

        let partly = await h.fake.transaction(H.coins, type: .consumable, quantity: 3)
        await h.fake.emit(.verified(partly.signedAgain(after: 60) {
            $0.revocationDate = $0.signedDate
            $0.revocationPercentage = Decimal(string: "33.333")
            $0.revocationType = .proratedRefund
        }))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().balance("coins") == pack + (pack - pack / 3), "two packs of three stand")

        let whole = await h.fake.transaction(H.coins, type: .consumable, quantity: 3)
        await h.fake.emit(.verified(whole.signedAgain(after: 60) {
            $0.revocationDate = $0.signedDate
            $0.revocationPercentage = Decimal(100)
            $0.revocationType = .fullRefund
        }))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().balance("coins") == pack + (pack - pack / 3), "a full refund first seen grants nothing")
        #expect(await h.fake.unfinishedIDs.isEmpty, "every version is finished")
        await h.end(app)
    }
}
