import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperServer
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// A catalog that says `refunds: {spent-balance: forgive}` (docs/format.md, "refunds"): over HTTP, a refund of
/// coins already spent takes back what the balance still holds and leaves nothing owed, where the default
/// (`owe`, PurchaseLifeRouteTests) leaves a debt.
@Suite struct ForgivenRefundRouteTests {
    /// The test policy as compiled from its catalog with `spent-balance: forgive`.
    static func forgivingPolicy() throws -> CompiledPolicy {
        guard let url = Bundle.module.url(forResource: "Fixtures/policy", withExtension: "json") else {
            throw HarnessError("Fixtures/policy.json is not among the test resources")
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        let forgiving = text.replacingOccurrences(of: #""spent-balance": "owe""#, with: #""spent-balance": "forgive""#)
        try #require(forgiving != text, "the fixture names no spent-balance policy to change")
        let policy = try PolicyDecoder().decode(Array(forgiving.utf8))
        try #require(policy.refundedSpendPolicy == .forgive)
        return policy
    }

    @Test(arguments: TestBackend.available)
    func aRevokedPurchaseOfSpentCoinsTakesWhatIsLeftAndOwesNothing(backend: TestBackend) async throws {
        let policy = try Self.forgivingPolicy()
        try await ServerHarness.run(backend, configure: { $0.policy = policy }) { harness, client in
            let alice = try harness.token("alice")
            let bought = harness.payload("6000000130", product: ServerHarness.coins, user: "alice")
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(bought))).status == .ok)
            #expect(try await client.send(.put, "/v1/spends/k1", token: alice, body: #"{"balance":"coins","amount":30}"#).status == .ok)
            var refunded = harness.payload("6000000130", product: ServerHarness.coins, user: "alice", revoked: true)
            refunded.signedDate = ServerHarness.now.addingTimeInterval(-5)
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(refunded))).status == .ok)
            // 100 granted, 30 spent, 100 refunded: the 70 left are taken, the 30 spent forgiven.
            let body = try await client.send(.get, "/v1/entitlements", token: alice).object()
            #expect(body["balances"] as? [String: Int] == ["coins": 0])
            #expect(body["owed"] as? [String: Int] == [:])
            // The next purchase is the user's in full: no debt to pay first.
            let more = harness.payload("6000000131", product: ServerHarness.coins, user: "alice")
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(more))).status == .ok)
            let after = try await client.send(.get, "/v1/entitlements", token: alice).object()
            #expect(after["balances"] as? [String: Int] == ["coins": 100])
        }
    }
}
