import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerTestSupport
import Testing

/// `PUT /v1/spends/{key}`: once per key, never below zero, the user's own balance only.
@Suite struct SpendRouteTests {
    @Test(arguments: TestBackend.available)
    func spendsAreIdempotentByKeyAndNeverGoBelowZero(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let coins = harness.payload("4000000001", product: ServerHarness.coins, user: "alice", quantity: 2)
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(coins))).status == .ok)

            let spend = #"{"balance":"coins","amount":150}"#
            let first = try await client.send(.put, "/v1/spends/key%201", token: alice, body: spend)
            #expect(first.status == .ok)
            let answer = try first.object()
            #expect(answer["key"] as? String == "key 1")
            #expect(answer["remaining"] as? Int == 50)
            let again = try await client.send(.put, "/v1/spends/key%201", token: alice, body: spend)
            #expect(again.status == .ok)
            #expect(try again.object()["remaining"] as? Int == 50)

            let reused = try await client.send(.put, "/v1/spends/key%201", token: alice, body: #"{"balance":"coins","amount":10}"#)
            #expect(reused.status == .conflict)
            #expect(reused.errorCode() == "spend-key-reused")
            let tooMuch = try await client.send(.put, "/v1/spends/key-2", token: alice, body: #"{"balance":"coins","amount":51}"#)
            #expect(tooMuch.status == .conflict)
            #expect(tooMuch.errorCode() == "insufficient-balance")
            #expect(tooMuch.errorMessage()?.contains("50 available") == true)
            #expect(try await harness.storage.balances(of: "alice") == ["coins": 50])
        }
    }

    @Test(arguments: TestBackend.available)
    func anotherUserCannotSpendTheBalance(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let coins = harness.payload("4000000002", product: ServerHarness.coins, user: "alice")
            #expect(try await client.send(
                .post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(harness.sign(coins))).status == .ok)
            let response = try await client.send(.put, "/v1/spends/k", token: try harness.token("bob"), body: #"{"balance":"coins","amount":1}"#)
            #expect(response.status == .conflict)
            #expect(response.errorCode() == "insufficient-balance")
            #expect(try await harness.storage.balances(of: "alice") == ["coins": 100])
        }
    }

    @Test(arguments: TestBackend.available)
    func bodiesThatAreNotASpendAre400(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let cases = [
                #"{"balance":"coins"}"#, #"{"balance":"coins","amount":0}"#, #"{"balance":"coins","amount":-3}"#,
                #"{"balance":"","amount":1}"#, #"{"balance":"coins","amount":1.5}"#, #"{"amount":1}"#, "null",
            ]
            for body in cases {
                let response = try await client.send(.put, "/v1/spends/k", token: alice, body: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode() == "bad-request")
            }
        }
    }
}
