import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperContract
import StorekeeperJSON
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperSimulatedStore
import StorekeeperTestChain
import StorekeeperVerification
import Testing

/// `POST /v1/transactions`: verified, checked against the caller, kept once, its effects applied once.
@Suite struct TransactionRouteTests {
    @Test(arguments: TestBackend.available)
    func aVerifiedTransactionIsKeptAndAnswered(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let jws = try harness.sign(harness.payload("2000000001", product: ServerHarness.pro, user: "alice"))
            let response = try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(jws))
            #expect(response.status == .ok)
            let body = try response.object()
            #expect(body["transaction"] as? String == "2000000001")
            #expect(body["product"] as? String == ServerHarness.pro)
            #expect(body["originalTransaction"] as? String == "2000000001")
            #expect(body["environment"] as? String == "Sandbox")
            let kept = try await harness.storage.transactions(of: "alice")
            #expect(kept.map(\.transactionID) == ["2000000001"])
            #expect(kept.first?.payload == jws)
        }
    }

    @Test(arguments: TestBackend.available)
    func aConsumablePostedTwiceGrantsOnce(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let token = try harness.token("alice")
            let jws = try harness.sign(harness.payload("2000000002", product: ServerHarness.coins, user: "alice", quantity: 3))
            for _ in 0..<2 {
                #expect(try await client.send(.post, "/v1/transactions", token: token, body: ServerHarness.transactionBody(jws)).status == .ok)
            }
            #expect(try await harness.storage.balances(of: "alice") == ["coins": 300])
            let entitlements = try await client.send(.get, "/v1/entitlements", token: token).object()
            #expect(entitlements["balances"] as? [String: Int] == ["coins": 300])
        }
    }

    @Test(arguments: TestBackend.available)
    func forgedOrTamperedTransactionsAre422AndNothingIsStored(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let token = try harness.token("alice")
            let genuine = try harness.sign(harness.payload("2000000003", product: ServerHarness.coins, user: "alice"))
            let parts = genuine.split(separator: ".").map(String.init)
            // The payload changed after signing: quantity 100.
            let altered = harness.payload("2000000003", product: ServerHarness.coins, user: "alice", quantity: 100)
            let tampered = parts[0] + "." + Base64URL.encode(Array(JSONWriter(indentation: nil).serialize(altered.json).utf8)) + "." + parts[2]
            // Signed by a chain the server does not trust.
            let stranger = try SignedDataSigner(chain: TestCertificateChain(options: .init(seed: 99)))
                .sign(harness.payload("2000000004", product: ServerHarness.coins, user: "alice").json)
            let cases: [(String, String)] = [
                (tampered, "invalidSignature"), (stranger, "untrustedChain"), ("a.b.c", "malformedJWS"), ("", "malformedJWS"),
            ]
            for (jws, reason) in cases {
                let response = try await client.send(.post, "/v1/transactions", token: token, body: ServerHarness.transactionBody(jws))
                #expect(response.status == .unprocessableContent, "\(reason)")
                #expect(response.errorCode() == "verification-failed")
                #expect(response.errorMessage()?.hasPrefix(reason) == true, "\(response.errorMessage() ?? "")")
            }
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
            #expect(try await harness.storage.balances(of: "alice").isEmpty)
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.text.contains(#"storekeeper_verification_failures_total{reason="invalidSignature"} 1"#))
            #expect(metrics.text.contains(#"storekeeper_verification_failures_total{reason="untrustedChain"} 1"#))
        }
    }

    @Test(arguments: TestBackend.available)
    func anotherUsersAppAccountTokenIs403AndNothingIsStored(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let jws = try harness.sign(harness.payload("2000000005", product: ServerHarness.coins, user: "bob"))
            let response = try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(jws))
            #expect(response.status == .forbidden)
            #expect(response.errorCode() == "account-mismatch")
            #expect(try await harness.storage.lookUpTransaction("2000000005") == nil)
            #expect(try await harness.storage.balances(of: "alice").isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func aTransactionKeptForOneUserIsRefusedToAnotherAndGrantsThemNothing(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            // No appAccountToken: the purchase names no user, so the first poster keeps it.
            let jws = try harness.sign(harness.payload("2000000006", product: ServerHarness.coins, user: nil))
            #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(jws)).status == .ok)
            let response = try await client.send(.post, "/v1/transactions", token: try harness.token("bob"), body: ServerHarness.transactionBody(jws))
            #expect(response.status == .forbidden)
            #expect(response.errorCode() == "owned-by-another-user")
            #expect(try await harness.storage.balances(of: "bob").isEmpty)
            #expect(try await harness.storage.lookUpTransaction("2000000006")?.user == "alice")
        }
    }

    @Test(arguments: TestBackend.available)
    func environmentsNotConfiguredAreRefused(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            var payload = harness.payload("2000000007", product: ServerHarness.pro, user: "alice")
            payload.environment = .xcode
            let response = try await client.send(
                .post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(try harness.sign(payload)))
            #expect(response.status == .unprocessableContent)
            #expect(response.errorMessage()?.contains("Xcode") == true)
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func eachPayloadIsVerifiedByTheVerifierOfItsEnvironment(backend: TestBackend) async throws {
        let root = try ServerHarness.chain().rootDER
        try await ServerHarness.run(backend, configure: { configuration in
            // Production first: a Sandbox payload verifies only if the Sandbox verifier is picked for it.
            configuration.verifiers = try TransactionVerifiers(
                SignedDataVerifier(trustedRoots: [root], bundleID: ServerHarness.bundleID, environment: .production, appAppleID: 1234),
                SignedDataVerifier(trustedRoots: [root], bundleID: ServerHarness.bundleID, environment: .sandbox))
        }) { harness, client in
            let token = try harness.token("alice")
            let sandbox = harness.payload("2000000008", product: ServerHarness.pro, user: "alice")
            var production = harness.payload("2000000009", product: ServerHarness.pro, user: "alice")
            production.environment = .production
            for (payload, environment) in [(sandbox, "Sandbox"), (production, "Production")] {
                let response = try await client.send(.post, "/v1/transactions", token: token, body: ServerHarness.transactionBody(harness.sign(payload)))
                #expect(response.status == .ok, "\(environment): \(response.text)")
                #expect(try response.object()["environment"] as? String == environment)
            }
        }
        #expect(throws: TransactionVerifiers.Duplicate.self) {
            try TransactionVerifiers(
                SignedDataVerifier(trustedRoots: [root], bundleID: ServerHarness.bundleID, environment: .sandbox),
                SignedDataVerifier(trustedRoots: [root], bundleID: ServerHarness.bundleID, environment: .sandbox))
        }
    }

    @Test(arguments: TestBackend.available)
    func bodiesThatAreNotASignedTransactionAre400NamingWhatIsWrong(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let token = try harness.token("alice")
            let cases: [(String, String)] = [
                ("{", "not JSON"), ("{}", "signedTransaction: missing"), (#"{"signedTransaction":5}"#, "signedTransaction: expected a string"),
                ("[]", "not a JSON object"),
            ]
            for (body, message) in cases {
                let response = try await client.send(.post, "/v1/transactions", token: token, body: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode() == "bad-request")
                #expect(response.errorMessage()?.contains(message) == true, "\(body): \(response.errorMessage() ?? "")")
            }
        }
    }
}
