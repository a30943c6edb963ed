import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperCore
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import StorekeeperVerification
import Testing

/// `POST /v1/receipts/verify` over the fake App Store: a receipt keeps the
/// purchase it proves for the caller, once; anything it does not prove is
/// refused and keeps nothing; no verdict is 503.
@Suite struct ReceiptRouteTests {
    static let receipt = Data("a receipt".utf8).base64EncodedString()

    static func answer(bundle: String = ServerHarness.bundleID) -> String {
        """
        {"status": 0, "environment": "Sandbox", "receipt": {"bundle_id": "\(bundle)", "in_app": [
          {"product_id": "\(ServerHarness.coins)", "transaction_id": "r-1", "original_transaction_id": "r-1",
           "purchase_date_ms": "1767225000000", "quantity": "2"}]}}
        """
    }

    static func body(transaction: String = "r-1", product: String = ServerHarness.coins, receipt: String? = receipt) -> String {
        #"{"product":"\#(product)","receipt":\#(receipt.map { "\"\($0)\"" } ?? "null"),"transaction":"\#(transaction)"}"#
    }

    /// One in_app purchase of `product`, in the answer's members (`app_account_token` when `token` is given).
    static func answer(
        environment: String = "Sandbox", product: String = ServerHarness.coins, token: String? = nil, created: Int64? = nil,
        requested: Int64? = nil
    ) -> String {
        let dates = [created.map { #""receipt_creation_date_ms": "\#($0)""# }, requested.map { #""request_date_ms": "\#($0)""# }]
            .compactMap { $0 }.map { $0 + ", " }.joined()
        return """
            {"status": 0, "environment": "\(environment)", "receipt": {"bundle_id": "\(ServerHarness.bundleID)", \(dates)"in_app": [
              {"product_id": "\(product)", "transaction_id": "r-1", "original_transaction_id": "r-1",
               "purchase_date_ms": "1767225000000", "quantity": "1"\(token.map { #", "app_account_token": "\#($0)""# } ?? "")}]}}
            """
    }

    /// Runs `body` against a server whose forwarder asks the fake App Store, which answers `answer`.
    func withServer(
        _ backend: TestBackend, productionOnly: Bool = false, answering answer: @escaping @Sendable (String) -> FakeAppStore.Answer,
        _ body: @Sendable (ServerHarness, any TestClientProtocol, FakeAppStore) async throws -> Void
    ) async throws {
        try await FakeAppStore.run(answering: answer) { store in
            let forwarder = ReceiptForwarder(
                configuration: .init(productionURL: store.productionURL, sandboxURL: store.sandboxURL, sharedSecret: "shared", timeout: .seconds(20)))
            do {
                try await ServerHarness.run(
                    backend,
                    configure: { configuration in
                        configuration.receipts = forwarder
                        if productionOnly {
                            configuration.verifiers = try TransactionVerifiers(
                                SignedDataVerifier(
                                    trustedRoots: [ServerHarness.chain().rootDER], bundleID: ServerHarness.bundleID, environment: .production,
                                    appAppleID: 1))
                        }
                    }
                ) { harness, client in
                    try await body(harness, client, store)
                }
            } catch {
                try await forwarder.shutdown()
                throw error
            }
            try await forwarder.shutdown()
        }
    }

    @Test(arguments: TestBackend.available)
    func aValidReceiptKeepsThePurchaseItProvesOnceWithItsGrants(backend: TestBackend) async throws {
        try await withServer(backend, answering: { _ in .json(Self.answer()) }) { harness, client, store in
            for _ in 0..<2 {
                let response = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
                #expect(response.status == .ok, "\(response.text)")
                #expect(try response.object()["transaction"] as? String == "r-1")
                #expect(try response.object()["environment"] as? String == "Sandbox")
            }
            // The harness's server accepts the sandbox only: the sandbox is asked, production never.
            #expect(await store.calls.count("sandbox") == 2, "asked each time: a receipt's verdict is never cached")
            #expect(await store.calls.count("production") == 0)
            #expect(try await harness.storage.balances(of: "alice") == ["coins": 200], "100 coins times a quantity of 2, granted once")
            #expect(try await harness.storage.transactions(of: "alice").map(\.transactionID) == ["r-1"])
        }
    }

    @Test(arguments: TestBackend.available)
    func aReceiptThatDoesNotProveTheTransactionOrProductKeepsNothing(backend: TestBackend) async throws {
        try await withServer(backend, answering: { _ in .json(Self.answer()) }) { harness, client, _ in
            let token = try harness.token("alice")
            let missing = try await client.send(.post, "/v1/receipts/verify", token: token, body: Self.body(transaction: "r-2"))
            #expect(missing.status == .forbidden && missing.errorCode() == "receipt-not-valid")
            #expect(missing.errorMessage()?.contains("does not prove transaction 'r-2'") == true, "\(missing.text)")
            let other = try await client.send(.post, "/v1/receipts/verify", token: token, body: Self.body(product: ServerHarness.pro))
            #expect(other.status == .forbidden && other.errorMessage()?.contains("is of product '\(ServerHarness.coins)'") == true, "\(other.text)")
            let none = try await client.send(.post, "/v1/receipts/verify", token: token, body: Self.body(receipt: nil))
            #expect(none.status == .forbidden && none.errorCode() == "receipt-not-valid")
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
            #expect(try await harness.storage.balances(of: "alice").values.allSatisfy { $0 == 0 })
        }
    }

    @Test(arguments: TestBackend.available)
    func anotherAppsReceiptIsRefused(backend: TestBackend) async throws {
        try await withServer(backend, answering: { _ in .json(Self.answer(bundle: "com.example.other")) }) { harness, client, _ in
            let response = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
            #expect(response.status == .forbidden && response.errorMessage()?.contains("another app's (bundle id 'com.example.other')") == true)
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
        }
    }

    /// 21003: not authenticated, the receipt's fault (403); 21005: try again (503); 21004 and 21000: the
    /// server's own request is wrong (its shared secret, its HTTP method), which the client cannot fix
    /// and the receipt may be valid: 503 with a code the operator can find, never a permanent 403.
    /// https://developer.apple.com/documentation/appstorereceipts/status
    @Test(arguments: [
        (21003, HTTPResponse.Status.forbidden, "receipt-not-valid"), (21005, .serviceUnavailable, "unavailable"),
        (21004, .serviceUnavailable, "receipts-misconfigured"), (21000, .serviceUnavailable, "receipts-misconfigured"),
    ])
    func appleRefusalsAre403AndNoVerdictIs503(status: Int, answer: HTTPResponse.Status, code: String) async throws {
        try await withServer(.sqlite, answering: { _ in .status(status) }) { harness, client, _ in
            let response = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
            #expect(response.status == answer, "\(response.text)")
            #expect(response.errorCode() == code)
            #expect(response.errorMessage()?.contains("shared") != true, "the answer says nothing of the secret: \(response.text)")
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
        }
    }

    /// A production-only server asked about a sandbox receipt (21007, a TestFlight tester's free purchase)
    /// refuses it without asking the sandbox: sandbox never counts as production.
    @Test(arguments: TestBackend.available)
    func aProductionServerRefusesASandboxReceipt(backend: TestBackend) async throws {
        try await withServer(backend, productionOnly: true, answering: { $0 == "production" ? .status(21007) : .json(Self.answer()) }) {
            harness, client, store in
            let response = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
            #expect(response.status == .forbidden && response.errorCode() == "receipt-not-valid", "\(response.text)")
            #expect(response.errorMessage()?.contains("sandbox") == true, "\(response.text)")
            #expect(await store.calls.count("sandbox") == 0)
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
            #expect(try await harness.storage.balances(of: "alice").values.allSatisfy { $0 == 0 })
        }
    }

    @Test func aProductionServerAcceptsAProductionReceipt() async throws {
        try await withServer(.sqlite, productionOnly: true, answering: { _ in .json(Self.answer(environment: "Production")) }) { harness, client, _ in
            let response = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
            #expect(response.status == .ok, "\(response.text)")
            #expect(try response.object()["environment"] as? String == "Production")
        }
    }

    /// A purchase's app_account_token (https://developer.apple.com/documentation/appstorereceipts/app_account_token)
    /// names the account it was bought for, as a signed transaction's appAccountToken does: another user's is 403
    /// `account-mismatch`, the caller's own is kept.
    @Test(arguments: TestBackend.available)
    func aPurchaseForAnotherAccountIsRefused(backend: TestBackend) async throws {
        let bobs = AppAccountToken.derive(fromUser: "bob").uuidString
        try await withServer(backend, answering: { _ in .json(Self.answer(token: bobs)) }) { harness, client, _ in
            let alice = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
            #expect(alice.status == .forbidden && alice.errorCode() == "account-mismatch", "\(alice.text)")
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
            let bob = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("bob"), body: Self.body())
            #expect(bob.status == .ok, "\(bob.text)")
            #expect(try await harness.storage.balances(of: "bob")["coins"] == 100)
        }
    }

    /// A receipt-proven purchase is dated by Apple's answer (receipt_creation_date_ms), not by the server's clock: a
    /// version Apple signed after that answer (here refunded) is newer and replaces it.
    @Test(arguments: TestBackend.available)
    func aSignedVersionMadeAfterTheReceiptsAnswerIsNewer(backend: TestBackend) async throws {
        let requested = Int64(ServerHarness.now.addingTimeInterval(-3_600).timeIntervalSince1970 * 1_000)
        try await withServer(backend, answering: { _ in .json(Self.answer(created: requested - 60_000, requested: requested)) }) {
            harness, client, _ in
            let token = try harness.token("alice")
            let proven = try await client.send(.post, "/v1/receipts/verify", token: token, body: Self.body())
            #expect(proven.status == .ok, "\(proven.text)")
            let kept = try await harness.storage.transactions(of: "alice")
            // An entry of the receipt's in_app: as of when the receipt was made (receipt_creation_date_ms).
            #expect(kept.map(\.signedDate) == [Double(requested - 60_000) / 1_000], "dated by Apple's answer, not the server's now")
            #expect(try await harness.storage.balances(of: "alice")["coins"] == 100)
            // The same transaction, refunded, signed 30 seconds before the server's now: after the receipt's answer.
            let refunded = try harness.sign(harness.payload("r-1", product: ServerHarness.coins, user: "alice", revoked: true))
            _ = try await client.send(.post, "/v1/transactions", token: token, body: ServerHarness.transactionBody(refunded))
            #expect(try await harness.storage.transactions(of: "alice").first?.revocationDate != nil, "the newer signed version is kept")
        }
    }

    @Test func aServerWithoutReceiptVerificationSaysSo() async throws {
        try await ServerHarness.run(.sqlite) { harness, client in
            let response = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
            #expect(response.status == .notFound && response.errorCode() == "receipts-not-configured")
        }
    }

    @Test func theRouteTakesAClientToken() async throws {
        try await ServerHarness.run(.sqlite) { _, client in
            let response = try await client.send(.post, "/v1/receipts/verify", body: Self.body())
            #expect(response.status == .unauthorized)
        }
    }
}
