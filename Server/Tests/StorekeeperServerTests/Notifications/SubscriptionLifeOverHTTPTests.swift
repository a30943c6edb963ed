import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperCore
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing

/// A subscription's life as a server lives it: bought, renewed, failing to
/// renew into its grace period and then billing retry, recovered, refunded
/// and the refund reversed, each step a signed notification posted to
/// `POST /v1/notifications/sandbox`, and the user's `GET /v1/entitlements`
/// checked after each. Apple's retry of a notification changes nothing.
@Suite struct SubscriptionLifeOverHTTPTests {
    static let month: TimeInterval = 30 * 86_400

    /// The signed payload of a notification about the subscription period `period`, signed `signed`.
    static func notification(
        _ harness: ServerHarness, _ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype? = nil,
        period: String, bought: Date? = nil, expires: Date, signed: Date, revoked: Date? = nil, gracePeriodEnds: Date? = nil,
        status: NotificationPayload.SubscriptionStatus? = nil, uuid: UUID = UUID()
    ) throws -> String {
        let transaction = TransactionPayload(
            transactionID: period, originalTransactionID: "s-1", bundleID: ServerHarness.bundleID, productID: ServerHarness.monthly,
            subscriptionGroupIdentifier: "premium", purchaseDate: bought ?? signed, expiresDate: expires, quantity: 1, type: .autoRenewableSubscription,
            appAccountToken: AppAccountToken.derive(fromUser: "alice"), signedDate: signed,
            revocationReason: revoked == nil ? nil : .otherReason, revocationDate: revoked, environment: .sandbox)
        let renewal = RenewalInfoPayload(
            originalTransactionID: "s-1", productID: ServerHarness.monthly, gracePeriodExpiresDate: gracePeriodEnds, signedDate: signed,
            environment: .sandbox)
        return try harness.signer.sign(
            NotificationPayload(
                notificationType: type, subtype: subtype, notificationUUID: uuid, bundleID: ServerHarness.bundleID, environment: .sandbox,
                signedTransactionInfo: try harness.signer.sign(transaction.json), signedRenewalInfo: try harness.signer.sign(renewal.json),
                status: status, signedDate: signed
            ).json)
    }

    static func body(_ signedPayload: String) -> String { #"{"signedPayload":"\#(signedPayload)"}"# }

    /// The user's entitlements: features, and each subscription's status and expiry.
    static func entitlements(_ client: any TestClientProtocol, _ token: String) async throws -> (features: [String], subscriptions: [String]) {
        let body = try await client.send(.get, "/v1/entitlements", token: token).object()
        let subscriptions = (body["subscriptions"] as? [[String: Any]] ?? []).map {
            "\($0["status"] as? String ?? "?") until \(Int($0["expirationDate"] as? Double ?? 0))"
        }
        return (body["features"] as? [String] ?? [], subscriptions)
    }

    /// Apple's sequence (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype): a
    /// renewal fails when the period ends, the grace period runs to `gracePeriodExpiresDate`, then
    /// `GRACE_PERIOD_EXPIRED`; each notification carries `data.status`
    /// (https://developer.apple.com/documentation/appstoreservernotifications/status). The server's clock is one
    /// minute after each notification is signed.
    @Test(arguments: TestBackend.available)
    func eachNotificationMovesTheEntitlementsAsTheAppStoreSays(backend: TestBackend) async throws {
        let clock = TestClock()
        try await ServerHarness.run(backend, clock: clock) { harness, client in
            let now = ServerHarness.now
            let alice = try harness.token("alice", until: now.addingTimeInterval(365 * 86_400))
            _ = try await client.send(.get, "/v1/account", token: alice)
            func post(
                _ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype? = nil, period: String, bought: Date,
                expires: Date, signed: Date, status: NotificationPayload.SubscriptionStatus, revoked: Date? = nil, gracePeriodEnds: Date? = nil
            ) async throws -> (features: [String], subscriptions: [String]) {
                let payload = try Self.notification(
                    harness, type, subtype, period: period, bought: bought, expires: expires, signed: signed, revoked: revoked,
                    gracePeriodEnds: gracePeriodEnds, status: status)
                let response = try await client.send(.post, "/v1/notifications/sandbox", body: Self.body(payload))
                #expect(response.status == .ok, "\(type.rawValue): \(response.text)")
                clock.set(signed.addingTimeInterval(60))
                return try await Self.entitlements(client, alice)
            }
            let first = now.addingTimeInterval(Self.month)
            let second = first.addingTimeInterval(Self.month)
            let end = { (date: Date) in Int(date.timeIntervalSince1970) }

            var seen = try await post(.subscribed, .initialBuy, period: "s-1", bought: now, expires: first, signed: now, status: .active)
            #expect(seen.features == ["premium"] && seen.subscriptions == ["active until \(end(first))"])

            seen = try await post(.didRenew, period: "s-2", bought: first, expires: second, signed: first, status: .active)
            #expect(seen.features == ["premium"] && seen.subscriptions == ["active until \(end(second))"])

            // The renewal failed: access kept through the grace period...
            let grace = second.addingTimeInterval(6 * 86_400)
            seen = try await post(
                .didFailToRenew, .gracePeriod, period: "s-2", bought: first, expires: second, signed: second, status: .billingGracePeriod,
                gracePeriodEnds: grace)
            #expect(seen.features == ["premium"] && seen.subscriptions == ["grace-period until \(end(grace))"])
            // ...then billing retry, which unlocks nothing.
            seen = try await post(.gracePeriodExpired, period: "s-2", bought: first, expires: second, signed: grace, status: .billingRetry)
            #expect(seen.features == [] && seen.subscriptions == ["billing-retry until \(end(second))"])

            let recovered = grace.addingTimeInterval(86_400)
            let third = recovered.addingTimeInterval(Self.month)
            seen = try await post(.didRenew, .billingRecovery, period: "s-3", bought: recovered, expires: third, signed: recovered, status: .active)
            #expect(seen.features == ["premium"] && seen.subscriptions == ["active until \(end(third))"])

            // Refunded: nothing; the refund reversed: as before.
            let refunded = recovered.addingTimeInterval(3_600)
            seen = try await post(
                .refund, period: "s-3", bought: recovered, expires: third, signed: refunded, status: .revoked, revoked: refunded)
            #expect(seen.features == [] && seen.subscriptions == [])
            seen = try await post(
                .refundReversed, period: "s-3", bought: recovered, expires: third, signed: refunded.addingTimeInterval(3_600), status: .active)
            #expect(seen.features == ["premium"] && seen.subscriptions == ["active until \(end(third))"])
        }
    }

    @Test(arguments: TestBackend.available)
    func aRetriedNotificationIsAnswered200AndAppliedOnce(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            _ = try await client.send(.get, "/v1/account", token: alice)
            let signed = ServerHarness.now.addingTimeInterval(-3_600)
            let expires = ServerHarness.now.addingTimeInterval(Self.month)
            let uuid = UUID()
            let subscribed = try Self.notification(harness, .subscribed, .initialBuy, period: "s-1", expires: expires, signed: signed, uuid: uuid)
            for _ in 0..<3 {
                #expect(try await client.send(.post, "/v1/notifications/sandbox", body: Self.body(subscribed)).status == .ok)
            }
            let notifications = try await harness.storage.notifications(limit: 10)
            #expect(notifications.map { $0.notificationUUID.lowercased() } == [uuid.uuidString.lowercased()], "stored once")
            #expect(notifications.first?.processedAt != nil)
            #expect(try await Self.entitlements(client, alice).subscriptions.count == 1)
        }
    }

    @Test func forgedMalformedAndUnacceptedNotificationsAreRefusedAndKeepNothing() async throws {
        try await ServerHarness.run(.sqlite) { harness, client in
            let signed = ServerHarness.now.addingTimeInterval(-3_600)
            let good = try Self.notification(harness, .subscribed, period: "s-1", expires: ServerHarness.now.addingTimeInterval(Self.month), signed: signed)
            var parts = good.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            let forged = try await client.send(.post, "/v1/notifications/sandbox", body: Self.body(parts.joined(separator: ".")))
            #expect(forged.status == .badRequest, "\(forged.text)")
            let malformed = try await client.send(.post, "/v1/notifications/sandbox", body: #"{"signedPayload": 3}"#)
            #expect(malformed.status == .badRequest && malformed.errorMessage() != nil)
            // The server accepts Sandbox only: the production route has no verifier.
            let production = try await client.send(.post, "/v1/notifications/production", body: Self.body(good))
            #expect(production.status == .notFound, "\(production.text)")
            #expect(try await harness.storage.notifications(limit: 10).isEmpty)
        }
    }
}
