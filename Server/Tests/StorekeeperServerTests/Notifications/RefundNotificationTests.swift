import Foundation
import StorekeeperJSON
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// Refunds of consumables take back what they granted (all of it, or a prorated share), a
/// reversal gives it back, each once; a consumption request is kept for the team.
@Suite struct RefundNotificationTests {
    let fixture: NotificationFixture
    let token = UUID()

    init() throws { fixture = try NotificationFixture() }

    /// A purchase of `quantity` × 100 coins by alice, through ONE_TIME_CHARGE.
    func buyCoins(_ id: String, quantity: Int = 1, processor: NotificationProcessor) async throws {
        let signed = NotificationFixture.start
        let answer = await processor.receive(
            try fixture.notification(
                .oneTimeCharge,
                transaction: try fixture.transaction(id, product: NotificationFixture.coins, token: token, signed: signed, quantity: quantity),
                signed: signed))
        #expect(answer == .acknowledged)
    }

    /// The App Store's `type` notification for transaction `id`, signed `offset` seconds after the purchase.
    func coinsNotification(
        _ type: NotificationPayload.NotificationType, _ id: String, offset: TimeInterval, revoked: Bool,
        extra: [(key: String, value: JSONValue)] = [], quantity: Int = 1
    ) throws -> String {
        let signed = NotificationFixture.start.addingTimeInterval(offset)
        return try fixture.notification(
            type,
            transaction: try fixture.transaction(
                id, product: NotificationFixture.coins, token: token, signed: signed, revoked: revoked ? signed : nil, quantity: quantity,
                extra: extra),
            signed: signed)
    }

    @Test(arguments: TestBackend.available)
    func aRefundTakesBackTheCoinsLeftAndAReversalGivesThemBackOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            try await buyCoins("700", processor: processor)
            try await buyCoins("701", processor: processor)
            #expect(try await storage.balances(of: "alice") == ["coins": 200])
            _ = try await storage.spend(SpendRequest(user: "alice", key: "k", balance: "coins", amount: 130))

            let refund = try coinsNotification(.refund, "700", offset: 60, revoked: true)
            #expect(await processor.receive(refund) == .acknowledged)
            // 200 granted, 130 spent, the refunded purchase's 100 taken back: 30 owed, not forgiven.
            #expect(try await storage.balances(of: "alice") == ["coins": -30])
            // The same notification again (Apple's retry): nothing twice.
            #expect(await processor.receive(refund) == .acknowledged)
            #expect(try await storage.balances(of: "alice") == ["coins": -30])

            let reversal = try coinsNotification(.refundReversed, "700", offset: 120, revoked: false)
            #expect(await processor.receive(reversal) == .acknowledged)
            #expect(await processor.receive(reversal) == .acknowledged)
            #expect(try await storage.balances(of: "alice") == ["coins": 70])
            #expect(try await storage.lookUpTransaction("700")?.revocationDate == nil)

            // A refund older than the reversal, under another notification: nothing taken.
            #expect(await processor.receive(try coinsNotification(.refund, "700", offset: 90, revoked: true)) == .acknowledged)
            #expect(try await storage.balances(of: "alice") == ["coins": 70])
        }
    }

    @Test(arguments: TestBackend.available)
    func aProratedRefundTakesItsShare(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            try await buyCoins("700", quantity: 2, processor: processor)
            #expect(try await storage.balances(of: "alice") == ["coins": 200])
            let prorated = try coinsNotification(
                .refund, "700", offset: 60, revoked: true,
                extra: [("revocationType", "REFUND_PRORATED"), ("revocationPercentage", 25_000)], quantity: 2)
            #expect(await processor.receive(prorated) == .acknowledged)
            // 25.000 % of 200.
            #expect(try await storage.balances(of: "alice") == ["coins": 150])
        }
    }

    @Test(arguments: TestBackend.available)
    func aConsumptionRequestIsKeptForTheTeam(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            try await buyCoins("700", processor: processor)
            let uuid = UUID()
            let signed = NotificationFixture.start.addingTimeInterval(60)
            let request = try fixture.notification(
                "CONSUMPTION_REQUEST", uuid: uuid,
                transaction: try fixture.transaction("700", product: NotificationFixture.coins, token: token, signed: signed), signed: signed)
            #expect(await processor.receive(request) == .acknowledged)
            #expect(await processor.receive(request) == .acknowledged)
            #expect(
                try await storage.consumptionRequests() == [
                    ConsumptionRequest(
                        notificationUUID: uuid.uuidString.lowercased(), transactionID: "700", user: "alice",
                        receivedAt: NotificationFixture.start.timeIntervalSince1970)
                ])
            // Asking changes nothing else.
            #expect(try await storage.balances(of: "alice") == ["coins": 100])
        }
    }
}
