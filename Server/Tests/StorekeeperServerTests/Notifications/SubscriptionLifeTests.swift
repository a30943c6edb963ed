import Foundation
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// A subscription's life driven by signed notifications, its state checked at each step:
/// bought, renewed, failing to renew into grace and billing retry, recovered, expired,
/// refunded and the refund reversed.
@Suite struct SubscriptionLifeTests {
    let fixture: NotificationFixture
    let token = UUID()

    init() throws { fixture = try NotificationFixture() }

    @Test(arguments: TestBackend.available)
    func aSubscriptionsLifeFollowsItsNotifications(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            let start = NotificationFixture.start
            let month = NotificationFixture.month
            var step = 0.0

            /// Sends `type` for the period `id` (ending `expires`), signed one hour after the previous step.
            func send(
                _ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype? = nil, period id: String,
                expires: Date, revoked: Date? = nil, gracePeriodEnds: Date? = nil
            ) async throws -> SubscriptionState? {
                step += 3_600
                let signed = start.addingTimeInterval(step)
                let answer = await processor.receive(
                    try fixture.notification(
                        type, subtype,
                        transaction: try fixture.transaction(
                            id, original: "500", product: NotificationFixture.monthly, token: token, signed: signed, expires: expires,
                            revoked: revoked),
                        renewal: try fixture.renewal(original: "500", signed: signed, gracePeriodEnds: gracePeriodEnds),
                        signed: signed))
                #expect(answer == .acknowledged, "\(type.rawValue): \(answer)")
                return try await storage.subscriptions(of: "alice").first
            }

            let firstEnd = start.addingTimeInterval(month)
            var state = try await send(.subscribed, .initialBuy, period: "500", expires: firstEnd)
            #expect(state?.status == .active)
            #expect(state?.expirationDate == firstEnd.timeIntervalSince1970)

            let secondEnd = firstEnd.addingTimeInterval(month)
            state = try await send(.didRenew, period: "501", expires: secondEnd)
            #expect(state?.status == .active)
            #expect(state?.expirationDate == secondEnd.timeIntervalSince1970)
            #expect(try await storage.transactions(of: "alice").map(\.transactionID) == ["500", "501"])

            // Billing fails with a grace period: access goes on until the grace period ends.
            let graceEnd = secondEnd.addingTimeInterval(6 * 86_400)
            state = try await send(.didFailToRenew, .gracePeriod, period: "501", expires: secondEnd, gracePeriodEnds: graceEnd)
            #expect(state?.status == .gracePeriod)
            #expect(state?.expirationDate == graceEnd.timeIntervalSince1970)

            state = try await send(.gracePeriodExpired, period: "501", expires: secondEnd)
            #expect(state?.status == .billingRetry)

            let thirdEnd = secondEnd.addingTimeInterval(month)
            state = try await send(.didRenew, .billingRecovery, period: "502", expires: thirdEnd)
            #expect(state?.status == .active)

            // Billing fails without a grace period: billing retry at once.
            state = try await send(.didFailToRenew, period: "502", expires: thirdEnd)
            #expect(state?.status == .billingRetry)

            state = try await send(.didChangeRenewalStatus, .autoRenewDisabled, period: "502", expires: thirdEnd)
            #expect(state?.status == .active)

            state = try await send(.expired, .voluntary, period: "502", expires: thirdEnd)
            #expect(state?.status == .expired)

            state = try await send(.refund, period: "502", expires: thirdEnd, revoked: start.addingTimeInterval(step + 1))
            #expect(state?.status == .revoked)
            #expect(try await storage.lookUpTransaction("502")?.revocationDate != nil)

            // The reversal: the period stands again (and has not ended by the clock of this test).
            state = try await send(.refundReversed, period: "502", expires: thirdEnd)
            #expect(state?.status == .active)
            #expect(try await storage.lookUpTransaction("502")?.revocationDate == nil)

            // Family sharing stops: revoked.
            state = try await send(.revoke, period: "502", expires: thirdEnd, revoked: start.addingTimeInterval(step + 1))
            #expect(state?.status == .revoked)
            #expect(try await storage.notifications(limit: 100).allSatisfy { $0.processedAt != nil })
        }
    }

    @Test(arguments: TestBackend.available)
    func anOlderNotificationArrivingLateChangesNothing(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            let start = NotificationFixture.start
            let end = start.addingTimeInterval(NotificationFixture.month)
            let subscribed = try fixture.notification(
                .subscribed, .initialBuy,
                transaction: try fixture.transaction("500", product: NotificationFixture.monthly, token: token, signed: start, expires: end),
                signed: start)
            let failed = try fixture.notification(
                .didFailToRenew,
                transaction: try fixture.transaction(
                    "500", product: NotificationFixture.monthly, token: token, signed: start.addingTimeInterval(60), expires: end),
                signed: start.addingTimeInterval(60))
            #expect(await processor.receive(failed) == .acknowledged)
            #expect(await processor.receive(subscribed) == .acknowledged)
            #expect(try await storage.subscriptions(of: "alice").first?.status == .billingRetry)
            #expect(try await storage.lookUpTransaction("500")?.signedDate == start.addingTimeInterval(60).timeIntervalSince1970)
        }
    }
}
