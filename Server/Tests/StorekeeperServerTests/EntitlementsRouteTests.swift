import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// `GET /v1/entitlements`: derived from the user's verified transactions, subscriptions, balances and records.
@Suite struct EntitlementsRouteTests {
    @Test(arguments: TestBackend.available)
    func ownedProductsSubscriptionsInEffectAndBalancesMakeTheEntitlements(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let month = ServerHarness.now.addingTimeInterval(30 * 86_400)
            let payloads = [
                harness.payload("3000000001", product: ServerHarness.pro, user: "alice"),
                harness.payload("3000000002", product: ServerHarness.monthly, user: "alice", expires: month),
                harness.payload("3000000003", product: ServerHarness.coins, user: "alice", quantity: 2),
                // Refunded: unlocks nothing.
                harness.payload("3000000004", product: ServerHarness.level2, user: "alice", revoked: true),
            ]
            for payload in payloads {
                #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(payload))).status == .ok)
            }
            let body = try await client.send(.get, "/v1/entitlements", token: alice).object()
            #expect(body["features"] as? [String] == ["premium", "pro"])
            #expect(body["products"] as? [String] == [ServerHarness.monthly, ServerHarness.pro])
            #expect(body["balances"] as? [String: Int] == ["coins": 200])
            let subscriptions = body["subscriptions"] as? [[String: Any]]
            #expect(subscriptions?.count == 1)
            #expect(subscriptions?.first?["product"] as? String == ServerHarness.monthly)
            #expect(subscriptions?.first?["status"] as? String == "active")
            #expect(subscriptions?.first?["expirationDate"] as? Double == month.timeIntervalSince1970)

            let bob = try await client.send(.get, "/v1/entitlements", token: try harness.token("bob")).object()
            #expect(bob["features"] as? [String] == [])
            #expect(bob["balances"] as? [String: Int] == ["coins": 0])
        }
    }

    /// Apple's `data.status`: 3 is billing retry, 4 billing grace period
    /// (https://developer.apple.com/documentation/appstoreservernotifications/status); during a billing grace period
    /// the user keeps access until `gracePeriodExpiresDate`
    /// (https://developer.apple.com/documentation/appstoreserverapi/graceperiodexpiresdate).
    @Test(arguments: TestBackend.available)
    func subscriptionsOutOfEffectUnlockNothing(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let now = ServerHarness.now.timeIntervalSince1970
            // (original, period end, revoked, Apple's status, grace period end)
            let subscriptions: [(String, Double, Bool, Int?, Double?)] = [
                ("o1", now - 100, false, 2, nil), ("o2", now - 1, false, nil, nil), ("o3", now - 10, false, 4, now + 50),
                ("o4", now - 100, false, 3, nil), ("o5", now + 100, true, 5, nil), ("o6", now - 200, false, 4, now - 20),
            ]
            for (id, end, revoked, status, grace) in subscriptions {
                _ = try await harness.storage.keep(Self.period(id, user: "alice", end: end, revoked: revoked))
                if let status {
                    _ = try await harness.storage.update(
                        SubscriptionRenewal(
                            originalTransactionID: id, status: status, statusSignedDate: now - 5, gracePeriodExpiresDate: grace,
                            renewalSignedDate: now - 5))
                }
            }
            let body = try await client.send(.get, "/v1/entitlements", token: try harness.token("alice")).object()
            let listed = (body["subscriptions"] as? [[String: Any]])?.map { "\($0["status"] as? String ?? ""):\($0["expirationDate"] as? Double ?? 0)" }
            // o6's grace period is over: billing retry, listed with the period's end, like o4.
            #expect(listed == ["billing-retry:\(now - 200)", "billing-retry:\(now - 100)", "grace-period:\(now + 50)"])
            // The grace period keeps access.
            #expect(body["features"] as? [String] == ["premium"])

            // Billing retry lists the subscription, without access.
            _ = try await harness.storage.keep(Self.period("o7", user: "bob", end: now - 100, revoked: false))
            _ = try await harness.storage.update(SubscriptionRenewal(originalTransactionID: "o7", status: 3, statusSignedDate: now))
            let bob = try await client.send(.get, "/v1/entitlements", token: try harness.token("bob")).object()
            #expect((bob["subscriptions"] as? [[String: Any]])?.map { $0["status"] as? String } == ["billing-retry"])
            #expect(bob["features"] as? [String] == [])
            #expect(bob["products"] as? [String] == [])
        }
    }

    /// A period of `monthly` ending at `end`, kept for `user`.
    static func period(_ id: String, user: String, end: Double, revoked: Bool) -> StoredTransaction {
        StoredTransaction(
            transactionID: id, user: user, originalTransactionID: id, productID: ServerHarness.monthly, environment: "Sandbox",
            quantity: 1, purchaseDate: end - 2_678_400, expirationDate: end, revocationDate: revoked ? end - 1_000 : nil,
            signedDate: end - 1_000, payload: "jws.\(id)")
    }

    @Test(arguments: TestBackend.available)
    func aRecordUnlocksNothingOnlyAVerifiedUnrevokedTransactionDoes(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            // The client's word alone: kept and listed, but it unlocks nothing.
            let record = #"{"kind":"flag","product":"com.example.servertests.level2","purchaseDate":1,"strategy":"server","transaction":"3000000009"}"#
            #expect(try await client.send(.put, "/v1/records/3000000009", token: alice, body: record).status == .created)
            #expect(try await client.send(.get, "/v1/entitlements", token: alice).object()["features"] as? [String] == [])

            let bought = harness.payload("3000000009", product: ServerHarness.level2, user: "alice")
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(bought))).status == .ok)
            #expect(try await client.send(.get, "/v1/entitlements", token: alice).object()["features"] as? [String] == ["level-2"])

            var refund = harness.payload("3000000009", product: ServerHarness.level2, user: "alice", revoked: true)
            refund.signedDate = ServerHarness.now.addingTimeInterval(-5)
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(refund))).status == .ok)
            #expect(try await client.send(.get, "/v1/entitlements", token: alice).object()["features"] as? [String] == [])
        }
    }
}
