import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperCore
import StorekeeperJSON
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// A subscription's life driven by signed notifications as Apple documents them, the user's
/// entitlements read over HTTP at each step, the server's clock moved past each period's end.
///
/// Apple's sequences: a renewal is `DID_RENEW`; a failed renewal `DID_FAIL_TO_RENEW` (subtype
/// `GRACE_PERIOD` when a billing grace period starts), then `GRACE_PERIOD_EXPIRED`, or `DID_RENEW`
/// (`BILLING_RECOVERY`); turning renewal off `DID_CHANGE_RENEWAL_STATUS` (`AUTO_RENEW_DISABLED`),
/// then `EXPIRED` (`VOLUNTARY`) when the period ends
/// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
/// https://developer.apple.com/documentation/appstoreservernotifications/subtype). Each carries
/// `data.status`: 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked
/// (https://developer.apple.com/documentation/appstoreservernotifications/status). The user keeps
/// access during a billing grace period until `gracePeriodExpiresDate`
/// (https://developer.apple.com/documentation/appstoreserverapi/graceperiodexpiresdate), not during
/// billing retry; a refund of one period revokes that transaction
/// (https://developer.apple.com/documentation/appstoreservernotifications/revocationdate).
@Suite struct SubscriptionLifeTests {
    let fixture: NotificationFixture
    let token = AppAccountToken.derive(fromUser: "alice")
    static let start = NotificationFixture.start
    static let month = NotificationFixture.month

    init() throws { fixture = try NotificationFixture() }

    /// What the user's entitlements say of subscriptions, and the features they unlock.
    struct Seen: Equatable, CustomStringConvertible {
        var subscriptions: [String]
        var features: [String]
        var description: String { "\(subscriptions) \(features)" }
    }

    /// A test's world: the server on `backend`, its clock, the processor of its notifications, alice's token.
    struct World {
        let harness: ServerHarness
        let client: any TestClientProtocol
        let clock: TestClock
        let fixture: NotificationFixture
        let token: UUID

        /// Sends `type` about the period `id` (bought at `bought`, ending `expires`), signed at `signed`, with Apple's `status`.
        func send(
            _ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype? = nil, period id: String,
            product: String = NotificationFixture.monthly, bought: Date, expires: Date, status: NotificationPayload.SubscriptionStatus,
            signed: Date, revoked: Date? = nil, gracePeriodEnds: Date? = nil, upgraded: Bool = false
        ) async throws {
            let transaction = try fixture.transaction(
                id, original: "500", product: product, token: token, signed: signed, purchased: bought, expires: expires, revoked: revoked,
                extra: upgraded ? [(key: "isUpgraded", value: JSONValue.bool(true))] : [])
            let answer = await fixture.processor(harness.storage).receive(
                try fixture.notification(
                    type, subtype, transaction: transaction,
                    renewal: try fixture.renewal(original: "500", product: product, signed: signed, gracePeriodEnds: gracePeriodEnds),
                    status: status, signed: signed))
            #expect(answer == .acknowledged, "\(type.rawValue): \(answer)")
        }

        /// Alice's entitlements with the server's clock at `instant`.
        func seen(at instant: Date) async throws -> Seen {
            clock.set(instant)
            let token = try harness.token("alice", until: instant.addingTimeInterval(3_600))
            let body = try await client.send(.get, "/v1/entitlements", token: token).object()
            let subscriptions = (body["subscriptions"] as? [[String: Any]] ?? []).map {
                "\($0["product"] as? String ?? "")/\($0["status"] as? String ?? ""):\(Int($0["expirationDate"] as? Double ?? 0))"
            }
            return Seen(subscriptions: subscriptions, features: body["features"] as? [String] ?? [])
        }
    }

    func run(_ backend: TestBackend, _ body: @Sendable @escaping (World) async throws -> Void) async throws {
        let clock = TestClock()
        let fixture = self.fixture
        let token = self.token
        try await ServerHarness.run(backend, clock: clock) { harness, client in
            _ = try await harness.storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            try await body(World(harness: harness, client: client, clock: clock, fixture: fixture, token: token))
        }
    }

    static func seen(_ status: String, _ end: Date, product: String = NotificationFixture.monthly, features: [String] = ["premium"]) -> Seen {
        Seen(subscriptions: ["\(product)/\(status):\(Int(end.timeIntervalSince1970))"], features: features)
    }

    static let nothing = Seen(subscriptions: [], features: [])

    @Test(arguments: TestBackend.available)
    func aSubscriptionsLifeFollowsItsPeriodsAndApplesStatus(backend: TestBackend) async throws {
        try await run(backend) { world in
            let hour: TimeInterval = 3_600
            let (start, month) = (Self.start, Self.month)
            let end1 = start.addingTimeInterval(month)
            try await world.send(.subscribed, .initialBuy, period: "500", bought: start, expires: end1, status: .active, signed: start)
            #expect(try await world.seen(at: start.addingTimeInterval(hour)) == Self.seen("active", end1))

            let end2 = end1.addingTimeInterval(month)
            try await world.send(.didRenew, period: "501", bought: end1, expires: end2, status: .active, signed: end1)
            #expect(try await world.seen(at: end1.addingTimeInterval(hour)) == Self.seen("active", end2))

            // Billing fails at end2 with a grace period: access goes on until the grace period ends ...
            let graceEnd = end2.addingTimeInterval(6 * 86_400)
            try await world.send(
                .didFailToRenew, .gracePeriod, period: "501", bought: end1, expires: end2, status: .billingGracePeriod, signed: end2,
                gracePeriodEnds: graceEnd)
            #expect(try await world.seen(at: end2.addingTimeInterval(hour)) == Self.seen("grace-period", graceEnd))
            // ... whatever else happens meanwhile (renewal turned off: Apple's status is still the grace period).
            try await world.send(
                .didChangeRenewalStatus, .autoRenewDisabled, period: "501", bought: end1, expires: end2, status: .billingGracePeriod,
                signed: end2.addingTimeInterval(hour), gracePeriodEnds: graceEnd)
            #expect(try await world.seen(at: end2.addingTimeInterval(2 * hour)) == Self.seen("grace-period", graceEnd))
            // Past the grace period, before GRACE_PERIOD_EXPIRED arrives: billing retry, no access.
            #expect(try await world.seen(at: graceEnd.addingTimeInterval(hour)) == Self.seen("billing-retry", end2, features: []))
            try await world.send(
                .gracePeriodExpired, period: "501", bought: end1, expires: end2, status: .billingRetry, signed: graceEnd.addingTimeInterval(hour))
            #expect(try await world.seen(at: graceEnd.addingTimeInterval(2 * hour)) == Self.seen("billing-retry", end2, features: []))

            // Billing recovers: a new period from the recovery.
            let recovered = graceEnd.addingTimeInterval(86_400)
            let end3 = recovered.addingTimeInterval(month)
            try await world.send(.didRenew, .billingRecovery, period: "502", bought: recovered, expires: end3, status: .active, signed: recovered)
            #expect(try await world.seen(at: recovered.addingTimeInterval(hour)) == Self.seen("active", end3))

            // Messages about the older period 501 (a consumption request, a declined refund, its refund) end nothing.
            let later = recovered.addingTimeInterval(2 * hour)
            try await world.send("CONSUMPTION_REQUEST", period: "501", bought: end1, expires: end2, status: .active, signed: later)
            try await world.send("REFUND_DECLINED", period: "501", bought: end1, expires: end2, status: .active, signed: later.addingTimeInterval(1))
            try await world.send(.refund, period: "501", bought: end1, expires: end2, status: .active, signed: later.addingTimeInterval(2), revoked: later)
            #expect(try await world.seen(at: later.addingTimeInterval(hour)) == Self.seen("active", end3))

            // Renewal turned off: the period paid for stands until it ends, then nothing, before EXPIRED arrives and after.
            try await world.send(
                .didChangeRenewalStatus, .autoRenewDisabled, period: "502", bought: recovered, expires: end3, status: .active,
                signed: later.addingTimeInterval(hour))
            #expect(try await world.seen(at: end3.addingTimeInterval(-1)) == Self.seen("active", end3))
            #expect(try await world.seen(at: end3) == Self.nothing)
            try await world.send(.expired, .voluntary, period: "502", bought: recovered, expires: end3, status: .expired, signed: end3)
            #expect(try await world.seen(at: end3.addingTimeInterval(hour)) == Self.nothing)
        }
    }

    @Test(arguments: TestBackend.available)
    func aRefundOfTheCurrentPeriodEndsItAndItsReversalGivesItBack(backend: TestBackend) async throws {
        try await run(backend) { world in
            let (start, month) = (Self.start, Self.month)
            let end = start.addingTimeInterval(month)
            let noon = start.addingTimeInterval(43_200)
            try await world.send(.subscribed, .initialBuy, period: "500", bought: start, expires: end, status: .active, signed: start)
            try await world.send(.refund, period: "500", bought: start, expires: end, status: .revoked, signed: noon, revoked: noon)
            #expect(try await world.seen(at: noon.addingTimeInterval(60)) == Self.nothing)
            try await world.send("REFUND_REVERSED", period: "500", bought: start, expires: end, status: .active, signed: noon.addingTimeInterval(120))
            #expect(try await world.seen(at: noon.addingTimeInterval(180)) == Self.seen("active", end))
        }
    }

    /// An upgrade takes effect at once: the upgraded-from transaction is signed again with
    /// `isUpgraded` true and the new tier's period starts
    /// (https://developer.apple.com/documentation/appstoreserverapi/isupgraded,
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype, DID_CHANGE_RENEWAL_PREF
    /// `UPGRADE`). A late copy of the lower tier's transaction, signed before the upgrade, changes nothing.
    @Test(arguments: TestBackend.available)
    func anUpgradeSwitchesToTheHigherTierAndALateLowerTierCopyChangesNothing(backend: TestBackend) async throws {
        try await run(backend) { world in
            let (start, month) = (Self.start, Self.month)
            let basicEnd = start.addingTimeInterval(month)
            let upgrade = start.addingTimeInterval(10 * 86_400)
            let monthlyEnd = upgrade.addingTimeInterval(month)
            try await world.send(
                .subscribed, .initialBuy, period: "500", product: ServerHarness.basic, bought: start, expires: basicEnd, status: .active,
                signed: start)
            #expect(try await world.seen(at: start.addingTimeInterval(60)) == Self.seen("active", basicEnd, product: ServerHarness.basic, features: ["basic"]))
            try await world.send(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", period: "501", bought: upgrade, expires: monthlyEnd, status: .active, signed: upgrade)
            try await world.send(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", period: "500", product: ServerHarness.basic, bought: start, expires: basicEnd,
                status: .active, signed: upgrade.addingTimeInterval(1), upgraded: true)
            #expect(try await world.seen(at: upgrade.addingTimeInterval(60)) == Self.seen("active", monthlyEnd))
            // The lower tier's first copy, posted late by the app: older, so the upgraded version stands.
            let late = try world.fixture.transaction(
                "500", original: "500", product: ServerHarness.basic, token: world.token, signed: start, expires: basicEnd)
            let alice = try world.harness.token("alice", until: upgrade.addingTimeInterval(3_600))
            #expect(try await world.client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(late)).status == .ok)
            #expect(try await world.seen(at: upgrade.addingTimeInterval(120)) == Self.seen("active", monthlyEnd))
        }
    }

    /// The upgraded-from transaction re-signed with `isUpgraded` reaches the server only if a device posts it
    /// (the UPGRADE notification carries the new tier's transaction); the new period's start says the upgrade
    /// all the same. When the new tier is then refunded, the old tier's period does not come back.
    @Test(arguments: TestBackend.available)
    func anUpgradeNeverPostedAsSuchStillEndsTheLowerTierAndARefundOfTheHigherOneLeavesNothing(backend: TestBackend) async throws {
        try await run(backend) { world in
            let (start, month) = (Self.start, Self.month)
            let basicEnd = start.addingTimeInterval(month)
            let upgrade = start.addingTimeInterval(10 * 86_400)
            let monthlyEnd = upgrade.addingTimeInterval(month)
            try await world.send(
                .subscribed, .initialBuy, period: "500", product: ServerHarness.basic, bought: start, expires: basicEnd, status: .active,
                signed: start)
            try await world.send(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", period: "501", bought: upgrade, expires: monthlyEnd, status: .active, signed: upgrade)
            #expect(try await world.seen(at: upgrade.addingTimeInterval(60)) == Self.seen("active", monthlyEnd))
            let refund = upgrade.addingTimeInterval(3_600)
            try await world.send(.refund, period: "501", bought: upgrade, expires: monthlyEnd, status: .revoked, signed: refund, revoked: refund)
            #expect(try await world.seen(at: refund.addingTimeInterval(60)) == Self.nothing)
        }
    }

    /// A lower level bought while the first period stood refunded is a new purchase, not an upgrade: when the
    /// first period's refund is reversed (and the lower level's refunded), the first period is current again.
    @Test(arguments: TestBackend.available)
    func aLowerLevelBoughtDuringARefundIsNoUpgrade(backend: TestBackend) async throws {
        try await run(backend) { world in
            let (start, month) = (Self.start, Self.month)
            let end = start.addingTimeInterval(month)
            let day: TimeInterval = 86_400
            try await world.send(.subscribed, .initialBuy, period: "500", bought: start, expires: end, status: .active, signed: start)
            let refund = start.addingTimeInterval(day)
            try await world.send(.refund, period: "500", bought: start, expires: end, status: .revoked, signed: refund, revoked: refund)
            let again = start.addingTimeInterval(2 * day)
            let basicEnd = again.addingTimeInterval(month)
            try await world.send(
                .subscribed, .resubscribe, period: "501", product: ServerHarness.basic, bought: again, expires: basicEnd, status: .active,
                signed: again)
            let second = start.addingTimeInterval(3 * day)
            try await world.send(
                .refund, period: "501", product: ServerHarness.basic, bought: again, expires: basicEnd, status: .revoked, signed: second,
                revoked: second)
            try await world.send("REFUND_REVERSED", period: "500", bought: start, expires: end, status: .active, signed: second.addingTimeInterval(60))
            #expect(try await world.seen(at: second.addingTimeInterval(120)) == Self.seen("active", end))
        }
    }

    /// A higher level bought while the first period stood refunded is a resubscription, not an upgrade
    /// (`SUBSCRIBED`/`RESUBSCRIBE`: https://developer.apple.com/documentation/appstoreservernotifications/subtype).
    /// Apple signs the first period again when it reverses its refund, after the higher level started,
    /// and that version carries no `isUpgraded` (https://developer.apple.com/documentation/appstoreserverapi/isupgraded:
    /// set only on the transaction the customer upgraded from): with the higher level refunded in its turn, the first
    /// period is current again, though the higher level started within it.
    @Test(arguments: TestBackend.available)
    func aHigherLevelBoughtDuringARefundIsNoUpgradeOnceApplesReversalSaysSo(backend: TestBackend) async throws {
        try await run(backend) { world in
            let (start, month) = (Self.start, Self.month)
            let day: TimeInterval = 86_400
            let basicEnd = start.addingTimeInterval(month)
            try await world.send(
                .subscribed, .initialBuy, period: "500", product: ServerHarness.basic, bought: start, expires: basicEnd, status: .active,
                signed: start)
            let refund = start.addingTimeInterval(day)
            try await world.send(
                .refund, period: "500", product: ServerHarness.basic, bought: start, expires: basicEnd, status: .revoked, signed: refund,
                revoked: refund)
            let again = start.addingTimeInterval(2 * day)
            let monthlyEnd = again.addingTimeInterval(month)
            try await world.send(
                .subscribed, .resubscribe, period: "501", bought: again, expires: monthlyEnd, status: .active, signed: again)
            let reversal = start.addingTimeInterval(3 * day)
            try await world.send(
                "REFUND_REVERSED", period: "500", product: ServerHarness.basic, bought: start, expires: basicEnd, status: .active,
                signed: reversal)
            let second = start.addingTimeInterval(4 * day)
            try await world.send(.refund, period: "501", bought: again, expires: monthlyEnd, status: .revoked, signed: second, revoked: second)
            #expect(
                try await world.seen(at: second.addingTimeInterval(60))
                    == Self.seen("active", basicEnd, product: ServerHarness.basic, features: ["basic"]))
        }
    }

    @Test(arguments: TestBackend.available)
    func anOlderNotificationArrivingLateChangesNothing(backend: TestBackend) async throws {
        try await run(backend) { world in
            let (start, month) = (Self.start, Self.month)
            let end = start.addingTimeInterval(month)
            // Billing retry, signed after the purchase, arrives first; the purchase's SUBSCRIBED (status active) after it.
            try await world.send(
                .didFailToRenew, period: "500", bought: start, expires: end, status: .billingRetry, signed: end.addingTimeInterval(60))
            try await world.send(.subscribed, .initialBuy, period: "500", bought: start, expires: end, status: .active, signed: start)
            #expect(try await world.seen(at: start.addingTimeInterval(60)) == Self.seen("active", end))
            // Past the period: the newest status Apple signed (billing retry) decides, not the last to arrive.
            #expect(try await world.seen(at: end.addingTimeInterval(120)) == Self.seen("billing-retry", end, features: []))
            #expect(try await world.harness.storage.lookUpTransaction("500")?.signedDate == end.addingTimeInterval(60).timeIntervalSince1970)
        }
    }
}
