import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// A transaction kept for one user, posted by another (a restore under
/// another account of the same Apple ID; no appAccountToken): refused by
/// default, moved with what it granted under `transfer`.
@Suite struct RestoreByAnotherUserTests {
    @Test(arguments: TestBackend.available)
    func byDefaultTheTransactionStaysWithItsFirstUser(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let jws = try harness.sign(harness.payload("4000000001", product: ServerHarness.coins, user: nil))
            #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(jws)).status == .ok)
            let bob = try await client.send(.post, "/v1/transactions", token: try harness.token("bob"), body: ServerHarness.transactionBody(jws))
            #expect(bob.status == .forbidden && bob.errorCode() == "owned-by-another-user", "\(bob.text)")
            #expect(try await harness.storage.balances(of: "alice") == ["coins": 100])
            #expect(try await harness.storage.balances(of: "bob").values.allSatisfy { $0 == 0 })
        }
    }

    @Test(arguments: TestBackend.available)
    func underTransferTheTransactionAndItsGrantsMoveToThePoster(backend: TestBackend) async throws {
        try await ServerHarness.run(backend, configure: { $0.restoreByAnotherUser = .transfer }) { harness, client in
            let coins = try harness.sign(harness.payload("4000000002", product: ServerHarness.coins, user: nil))
            let pro = try harness.sign(harness.payload("4000000003", product: ServerHarness.pro, user: nil))
            for jws in [coins, pro] {
                #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(jws)).status == .ok)
            }
            for jws in [coins, pro] {
                let bob = try await client.send(.post, "/v1/transactions", token: try harness.token("bob"), body: ServerHarness.transactionBody(jws))
                #expect(bob.status == .ok, "\(bob.text)")
            }
            #expect(try await harness.storage.balances(of: "bob") == ["coins": 100], "granted once, moved, not granted again")
            #expect(try await harness.storage.balances(of: "alice").values.allSatisfy { $0 == 0 })
            let alice = try await client.send(.get, "/v1/entitlements", token: try harness.token("alice")).object()
            #expect(alice["products"] as? [String] == [])
            let bob = try await client.send(.get, "/v1/entitlements", token: try harness.token("bob")).object()
            #expect(bob["products"] as? [String] == [ServerHarness.pro])
        }
    }

    @Test func aTransactionNamingAnotherUserIsRefusedEvenUnderTransfer() async throws {
        try await ServerHarness.run(.sqlite, configure: { $0.restoreByAnotherUser = .transfer }) { harness, client in
            let jws = try harness.sign(harness.payload("4000000004", product: ServerHarness.pro, user: "alice"))
            #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(jws)).status == .ok)
            let bob = try await client.send(.post, "/v1/transactions", token: try harness.token("bob"), body: ServerHarness.transactionBody(jws))
            #expect(bob.status == .forbidden && bob.errorCode() == "account-mismatch")
            #expect(try await harness.storage.transactions(of: "alice").count == 1)
        }
    }
}

/// A refunded transaction posted again in its older, unrefunded form (the
/// app kept the JWS it had): the ledger's newer, revoked version wins, and
/// nothing is granted again.
@Suite struct RefundedThenPostedAgainTests {
    @Test(arguments: TestBackend.available)
    func theOlderUnrevokedCopyGrantsNothing(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let bought = harness.payload("4000000010", product: ServerHarness.coins, user: "alice")
            var refunded = harness.payload("4000000010", product: ServerHarness.coins, user: "alice", revoked: true)
            refunded.signedDate = ServerHarness.now.addingTimeInterval(-5)
            // The refund is known first (as a notification would make it known), then the old copy arrives.
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(refunded))).status == .ok)
            let again = try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(bought)))
            #expect(again.status == .ok, "\(again.text)")
            #expect(try await harness.storage.balances(of: "alice").values.allSatisfy { $0 == 0 })
            #expect(try await harness.storage.lookUpTransaction("4000000010")?.revocationDate != nil)
        }
    }
}
