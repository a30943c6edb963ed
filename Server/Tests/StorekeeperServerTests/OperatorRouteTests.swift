import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// The operator routes under /v1/operator/, with the operator key.
@Suite struct OperatorRouteTests {
    static let key = ServerHarness.operatorKeyText

    @Test(arguments: TestBackend.available)
    func aUserAndATransactionAreShown(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let jws = try harness.sign(harness.payload("6000000001", product: ServerHarness.coins, user: "alice"))
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(jws)).status == .ok)
            let record = #"{"kind":"flag","product":"com.example.servertests.pro","purchaseDate":1.25,"strategy":"server","transaction":"r1"}"#
            #expect(try await client.send(.put, "/v1/records/r1", token: alice, body: record).status == .created)

            let user = try await client.send(.get, "/v1/operator/users/alice", token: Self.key).object()
            #expect(user["user"] as? String == "alice")
            #expect((user["transactions"] as? [[String: Any]])?.first?["transaction"] as? String == "6000000001")
            #expect(user["balances"] as? [String: [String: Int]] == ["Sandbox": ["coins": 100]])
            #expect((user["records"] as? [[String: Any]])?.first?["purchaseDate"] as? Double == 1.25)

            let transaction = try await client.send(.get, "/v1/operator/transactions/6000000001", token: Self.key)
            #expect(try transaction.object()["user"] as? String == "alice")
            #expect(try await client.send(.get, "/v1/operator/transactions/nope", token: Self.key).status == .notFound)
            #expect(try await client.send(.get, "/v1/operator/users/nobody", token: Self.key).errorCode() == "no-such-user")
        }
    }

    @Test(arguments: TestBackend.available)
    func notificationsAreListedNewestFirstWithinTheLimit(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            for index in 0..<3 {
                _ = try await harness.storage.receive(StoredNotification(
                    notificationUUID: "n\(index)", notificationType: "TEST", environment: "Sandbox", payload: "p", receivedAt: Double(index)))
            }
            _ = try await harness.storage.process(
                notificationUUID: "n0",
                effects: [.consumptionRequest(ConsumptionRequest(notificationUUID: "n0", transactionID: "t", user: nil, receivedAt: 0))], at: 1)
            let two = try await client.send(.get, "/v1/operator/notifications?limit=2", token: Self.key).object()["notifications"] as? [[String: Any]]
            #expect(two?.compactMap { $0["notificationUUID"] as? String } == ["n2", "n1"])
            let all = try await client.send(.get, "/v1/operator/notifications", token: Self.key).object()["notifications"] as? [Any]
            #expect(all?.count == 3)
            for limit in ["0", "501", "x"] {
                let response = try await client.send(.get, "/v1/operator/notifications?limit=\(limit)", token: Self.key)
                #expect(response.status == .badRequest, "\(limit)")
            }
            let requests = try await client.send(.get, "/v1/operator/consumption-requests", token: Self.key).object()
            #expect((requests["consumptionRequests"] as? [[String: Any]])?.first?["transaction"] as? String == "t")
        }
    }
}
