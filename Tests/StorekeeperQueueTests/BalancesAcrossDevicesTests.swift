import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// Balances kept in iCloud or on the server follow the user to another
/// device: each transaction counts once, however many devices or stores
/// report it, and a revoked one from no source.
@Suite struct BalancesAcrossDevicesTests {
    typealias B = BalanceFixtures

    @Test func gemsBoughtOnThePhoneAreOnThePadThatSharesICloud() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.gems, id: "p1", quantity: 3)
        try await phone.buy(B.gems, id: "p2")
        try await phone.buy(B.coins, id: "p3")
        #expect(await phone.balance("gems") == 40)
        await phone.queue.stop()

        let pad = try B.Device("pad", of: account)
        try await pad.start()
        // Both purchases of the one product, each with its quantity; coins are kept on the phone only.
        #expect(await pad.queue.entitlements().balances == ["gems": 40])
        await pad.queue.stop()
    }

    @Test func aTransactionGrantedHereAndRecordedInICloudCountsOnce() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.gems, id: "p1", quantity: 2)
        await phone.queue.refreshEntitlements()
        #expect(await phone.balance("gems") == 20)
        await phone.queue.stop()
        // Launched again: the journal's grant and the iCloud record are one transaction.
        let again = try B.Device("phone", of: account, store: phone.store)
        try await again.start()
        #expect(await again.balance("gems") == 20)
        await again.queue.stop()
    }

    @Test func aRevokedTransactionCountsFromNoSource() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.gems, id: "p1")
        try await phone.buy(B.gems, id: "p2")
        await phone.queue.stop()

        let pad = try B.Device("pad", of: account)
        try await pad.start()
        #expect(await pad.balance("gems") == 20)
        // The pad hears that the phone's first purchase was refunded: its iCloud record no longer counts there.
        let refund = StoreRevocation(productID: B.gems, transactionIDs: ["p1"], reason: .refund, date: Date(timeIntervalSince1970: 1_800_000_050))
        await pad.store.send(.revoked(refund))
        try await B.H.settle(pad.queue, pad.log) { $0.contains(.revoked(refund)) }
        #expect(await pad.balance("gems") == 10)
        await pad.queue.stop()
    }

    @Test func creditsKeptOnTheServerAreOnTheOtherDevice() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1", quantity: 2)
        #expect(await phone.balance("credits") == 100)
        await phone.queue.stop()

        let pad = try B.Device("pad", of: account)
        try await pad.start()
        #expect(await pad.balance("credits") == 100)
        // A purchase on the pad adds to what the server said, once.
        try await pad.buy(B.credits, id: "p2")
        #expect(await pad.balance("credits") == 150)
        await pad.queue.refreshEntitlements()
        #expect(await pad.balance("credits") == 150)
        await pad.queue.stop()
    }
}
