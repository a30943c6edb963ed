import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
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

    /// Runs `body` against a server whose forwarder asks the fake App Store, which answers `answer`.
    func withServer(
        _ backend: TestBackend, answering answer: @escaping @Sendable (String) -> FakeAppStore.Answer,
        _ body: @Sendable (ServerHarness, any TestClientProtocol, FakeAppStore) async throws -> Void
    ) async throws {
        try await FakeAppStore.run(answering: answer) { store in
            let forwarder = ReceiptForwarder(
                configuration: .init(productionURL: store.productionURL, sandboxURL: store.sandboxURL, sharedSecret: "shared", timeout: .seconds(20)))
            do {
                try await ServerHarness.run(backend, configure: { $0.receipts = forwarder }) { harness, client in
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
            #expect(await store.calls.count("production") == 2, "asked each time: a receipt's verdict is never cached")
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

    @Test(arguments: [(21003, HTTPResponse.Status.forbidden, "receipt-not-valid"), (21005, .serviceUnavailable, "unavailable")])
    func appleRefusalsAre403AndNoVerdictIs503(status: Int, answer: HTTPResponse.Status, code: String) async throws {
        try await withServer(.sqlite, answering: { _ in .status(status) }) { harness, client, _ in
            let response = try await client.send(.post, "/v1/receipts/verify", token: try harness.token("alice"), body: Self.body())
            #expect(response.status == answer, "\(response.text)")
            #expect(response.errorCode() == code)
            #expect(try await harness.storage.transactions(of: "alice").isEmpty)
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
