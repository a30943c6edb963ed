import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
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

    @Test(arguments: TestBackend.available)
    func subscriptionsOutOfEffectUnlockNothing(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let now = ServerHarness.now.timeIntervalSince1970
            let states: [(String, SubscriptionState.Status, Double)] = [
                ("o1", .expired, now + 100), ("o2", .active, now - 1), ("o3", .gracePeriod, now + 50), ("o4", .billingRetry, now - 100),
                ("o5", .revoked, now + 100),
            ]
            _ = try await harness.storage.register(user: "alice", appAccountToken: "t")
            for (id, status, expiry) in states {
                #expect(try await harness.storage.update(
                    SubscriptionState(originalTransactionID: id, user: "alice", productID: ServerHarness.monthly, status: status, expirationDate: expiry, signedDate: now)))
            }
            let body = try await client.send(.get, "/v1/entitlements", token: try harness.token("alice")).object()
            let subscriptions = (body["subscriptions"] as? [[String: Any]])?.map { $0["status"] as? String }
            #expect(subscriptions == ["billing-retry", "grace-period"])
            // The grace period keeps access.
            #expect(body["features"] as? [String] == ["premium"])

            // Billing retry lists the subscription, without access.
            _ = try await harness.storage.register(user: "bob", appAccountToken: "u")
            #expect(try await harness.storage.update(
                SubscriptionState(originalTransactionID: "o6", user: "bob", productID: ServerHarness.monthly, status: .billingRetry, expirationDate: now - 100, signedDate: now)))
            let bob = try await client.send(.get, "/v1/entitlements", token: try harness.token("bob")).object()
            #expect((bob["subscriptions"] as? [[String: Any]])?.map { $0["status"] as? String } == ["billing-retry"])
            #expect(bob["features"] as? [String] == [])
            #expect(bob["products"] as? [String] == [])
        }
    }

    @Test(arguments: TestBackend.available)
    func aRecordOfANonConsumableOwnsItUnlessItsTransactionWasRevoked(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let record = #"{"kind":"flag","product":"com.example.servertests.level2","purchaseDate":1,"strategy":"server","transaction":"3000000009"}"#
            #expect(try await client.send(.put, "/v1/records/3000000009", token: alice, body: record).status == .created)
            #expect(try await client.send(.get, "/v1/entitlements", token: alice).object()["features"] as? [String] == ["level-2"])

            let refund = harness.payload("3000000009", product: ServerHarness.level2, user: "alice", revoked: true)
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(refund))).status == .ok)
            #expect(try await client.send(.get, "/v1/entitlements", token: alice).object()["features"] as? [String] == [])
        }
    }
}
