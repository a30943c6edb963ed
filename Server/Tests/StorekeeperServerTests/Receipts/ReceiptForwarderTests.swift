import Foundation
import StorekeeperJSON
import StorekeeperServer
import Testing

/// The receipt forwarder against a fake App Store on loopback answering each status:
/// where it sends a receipt, how many times, and what it concludes.
@Suite(.timeLimit(.minutes(2))) struct ReceiptForwarderTests {
    static let receipt = Data("a receipt".utf8).base64EncodedString()
    static let secret = "s3cr3t-shared-secret"
    /// The environments a server accepting both passes.
    static let both: Set<ReceiptForwarder.Configuration.Environment> = [.production, .sandbox]

    /// Runs `body` with a forwarder to the fake App Store answering with `answer`.
    func withForwarder(
        sharedSecret: String? = secret, excludeOldTransactions: Bool = false, first: ReceiptForwarder.Configuration.Environment = .production,
        maximumAnswerSize: Int = 4 << 20, answering answer: @escaping @Sendable (String) -> FakeAppStore.Answer,
        _ body: (ReceiptForwarder, FakeAppStore) async throws -> Void
    ) async throws {
        try await FakeAppStore.run(answering: answer) { store in
            let forwarder = ReceiptForwarder(
                configuration: .init(
                    productionURL: store.productionURL, sandboxURL: store.sandboxURL, sharedSecret: sharedSecret,
                    excludeOldTransactions: excludeOldTransactions, firstEnvironment: first, timeout: .seconds(20),
                    maximumAnswerSize: maximumAnswerSize))
            do {
                try await body(forwarder, store)
            } catch {
                try await forwarder.shutdown()
                throw error
            }
            try await forwarder.shutdown()
        }
    }

    static let validAnswer = """
        {"status": 0, "environment": "Production",
         "receipt": {"bundle_id": "com.example.app", "in_app": [
           {"product_id": "com.example.app.coins", "transaction_id": "1000000001", "original_transaction_id": "1000000001",
            "purchase_date_ms": "1700000000000", "quantity": "3"},
           {"product_id": "com.example.app.monthly", "transaction_id": "1000000002", "original_transaction_id": "1000000002",
            "purchase_date_ms": "1700000001000", "expires_date_ms": "1702678401000", "quantity": "1"}]},
         "latest_receipt_info": [
           {"product_id": "com.example.app.monthly", "transaction_id": "1000000002", "original_transaction_id": "1000000002",
            "purchase_date_ms": "1700000001000", "expires_date_ms": "1702678401000", "cancellation_date_ms": "1701000000000",
            "quantity": "1"},
           {"product_id": "com.example.app.monthly", "transaction_id": "1000000003", "original_transaction_id": "1000000002",
            "purchase_date_ms": 1702678401000, "expires_date_ms": 1705356801000, "quantity": 1}],
         "latest_receipt": "MIIT..."}
        """

    @Test func aValidReceiptProvesItsPurchases() async throws {
        try await withForwarder(excludeOldTransactions: true, answering: { _ in .json(Self.validAnswer) }) { forwarder, store in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both)
            let date = { (ms: Double) in Date(timeIntervalSince1970: ms / 1_000) }
            #expect(
                verdict == .valid(
                    ValidReceipt(
                        environment: "Production", bundleID: "com.example.app",
                        purchases: [
                            ReceiptPurchase(
                                productID: "com.example.app.coins", transactionID: "1000000001", originalTransactionID: "1000000001",
                                purchaseDate: date(1_700_000_000_000), quantity: 3),
                            // latest_receipt_info wins over in_app for the same transaction.
                            ReceiptPurchase(
                                productID: "com.example.app.monthly", transactionID: "1000000002", originalTransactionID: "1000000002",
                                purchaseDate: date(1_700_000_001_000), expiresDate: date(1_702_678_401_000),
                                cancellationDate: date(1_701_000_000_000)),
                            ReceiptPurchase(
                                productID: "com.example.app.monthly", transactionID: "1000000003", originalTransactionID: "1000000002",
                                purchaseDate: date(1_702_678_401_000), expiresDate: date(1_705_356_801_000)),
                        ])))
            // One request, to production, with the receipt, the shared secret and exclude-old-transactions.
            let calls = await store.calls.all
            #expect(calls.map(\.endpoint) == ["production"])
            #expect(calls.first?.members["receipt-data"] == .string(Self.receipt))
            #expect(calls.first?.members["password"] == .string(Self.secret))
            #expect(calls.first?.members["exclude-old-transactions"] == .bool(true))
        }
    }

    @Test func noSharedSecretSendsNoPassword() async throws {
        try await withForwarder(sharedSecret: nil, answering: { _ in .status(0) }) { forwarder, store in
            #expect(await forwarder.verify(receiptData: Self.receipt, accepting: Self.both) == .valid(ValidReceipt(environment: "Production", bundleID: nil, purchases: [])))
            let members = await store.calls.all.first?.members ?? [:]
            #expect(members["password"] == nil)
            #expect(members["exclude-old-transactions"] == nil)
        }
    }

    @Test func aSandboxReceiptIsSentToTheSandboxOnce() async throws {
        try await withForwarder(answering: { $0 == "production" ? .status(21007) : .json(#"{"status":0,"environment":"Sandbox"}"#) }) { forwarder, store in
            #expect(await forwarder.verify(receiptData: Self.receipt, accepting: Self.both) == .valid(ValidReceipt(environment: "Sandbox", bundleID: nil, purchases: [])))
            #expect(await store.calls.count("production") == 1)
            #expect(await store.calls.count("sandbox") == 1)
            #expect(await store.calls.all.last?.members["password"] == .string(Self.secret))
        }
    }

    @Test func aProductionReceiptIsSentToProductionOnce() async throws {
        try await withForwarder(first: .sandbox, answering: { $0 == "sandbox" ? .status(21008) : .status(0) }) { forwarder, store in
            #expect(await forwarder.verify(receiptData: Self.receipt, accepting: Self.both) == .valid(ValidReceipt(environment: "Production", bundleID: nil, purchases: [])))
            #expect(await store.calls.endpoints == ["sandbox", "production"])
        }
    }

    @Test func endpointsSendingTheReceiptToEachOtherEndAfterOneCallEach() async throws {
        try await withForwarder(answering: { $0 == "production" ? .status(21007) : .status(21008) }) { forwarder, store in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both)
            guard case .unavailable(status: 21008, let reason) = verdict else {
                Issue.record("expected unavailable 21008, got \(verdict)")
                return
            }
            #expect(reason.contains("both endpoints"))
            #expect(await store.calls.endpoints == ["production", "sandbox"])
        }
    }

    @Test(arguments: [21002, 21005, 21009, 21100, 21150, 21199])
    func transientStatusesAreUnavailable(status: Int) async throws {
        try await withForwarder(answering: { _ in .status(status) }) { forwarder, store in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both)
            guard case .unavailable(status: status, let reason) = verdict else {
                Issue.record("\(status): expected unavailable, got \(verdict)")
                return
            }
            #expect(reason.contains("try again"))
            #expect(await store.calls.count("production") == 1)
            #expect(await store.calls.count("sandbox") == 0)
        }
    }

    @Test func anAnswerMarkedRetryableIsUnavailable() async throws {
        try await withForwarder(answering: { _ in .json(#"{"status":21003,"is-retryable":true}"#) }) { forwarder, _ in
            guard case .unavailable(status: 21003, _) = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both) else {
                Issue.record("a retryable 21003 is not unavailable")
                return
            }
        }
    }

    // Statuses and meanings from https://developer.apple.com/documentation/appstorereceipts/status
    @Test(arguments: [
        (21001, "no longer"), (21003, "authenticate"), (21006, "expired"), (21010, "user account"), (21200, "does not document"),
        (1, "does not document"),
    ])
    func otherStatusesAreRefusedWithTheirMeaning(status: Int, meaning: String) async throws {
        try await withForwarder(answering: { _ in .status(status) }) { forwarder, store in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both)
            guard case .refused(status: status, let said) = verdict else {
                Issue.record("\(status): expected a refusal, got \(verdict)")
                return
            }
            #expect(said.contains(meaning))
            #expect(await store.calls.all.count == 1)
        }
    }

    /// 21000 (the request was not an HTTP POST; in Apple's older wording, its JSON could not be read) and
    /// 21004 (the shared secret does not match the account's) blame the server's request, not the receipt:
    /// https://developer.apple.com/documentation/appstorereceipts/status
    @Test(arguments: [(21000, "POST"), (21004, "shared secret")])
    func theServersOwnMistakesAreMisconfigurationNotARefusal(status: Int, meaning: String) async throws {
        try await withForwarder(answering: { _ in .status(status) }) { forwarder, store in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both)
            guard case .misconfigured(status: status, let said) = verdict else {
                Issue.record("\(status): expected misconfigured, got \(verdict)")
                return
            }
            #expect(said.contains(meaning))
            #expect(!said.contains(Self.secret))
            #expect(await store.calls.all.count == 1)
        }
    }

    /// 21007 says the receipt is the sandbox's: a server that accepts production only does not ask the
    /// sandbox (its free purchases would count as production) and says why.
    @Test func aProductionOnlyServerDoesNotFollowASandboxReceiptToTheSandbox() async throws {
        try await withForwarder(answering: { $0 == "production" ? .status(21007) : .json(#"{"status":0,"environment":"Sandbox"}"#) }) { forwarder, store in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: [.production])
            #expect(verdict == .environmentNotAccepted(environment: .sandbox, status: 21007))
            #expect(await store.calls.endpoints == ["production"])
        }
    }

    @Test func aSandboxOnlyServerAsksTheSandboxFirstAndNeverProduction() async throws {
        try await withForwarder(answering: { $0 == "sandbox" ? .status(21008) : .status(0) }) { forwarder, store in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: [.sandbox])
            #expect(verdict == .environmentNotAccepted(environment: .production, status: 21008))
            #expect(await store.calls.endpoints == ["sandbox"])
        }
    }

    @Test func anAnswerClaimingAnEnvironmentNotAcceptedIsNotBelieved() async throws {
        try await withForwarder(answering: { _ in .json(#"{"status":0,"environment":"Sandbox"}"#) }) { forwarder, _ in
            let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: [.production])
            #expect(verdict == .environmentNotAccepted(environment: .sandbox, status: 0))
        }
    }

    /// Each entry's app_account_token (https://developer.apple.com/documentation/appstorereceipts/app_account_token),
    /// and when Apple stated it: the receipt's receipt_creation_date_ms for its in_app entries, the answer's
    /// request_date_ms for latest_receipt_info's (responseBody.Receipt).
    @Test func purchasesCarryTheirAccountTokenAndWhenAppleStatedThem() async throws {
        let answer = """
            {"status": 0, "environment": "Production",
             "receipt": {"bundle_id": "com.example.app", "receipt_creation_date_ms": "1700000100000", "request_date_ms": "1700000500000",
               "in_app": [
                 {"product_id": "p", "transaction_id": "1", "purchase_date_ms": "1700000000000",
                  "app_account_token": "0F8FAD5B-D9CB-469F-A165-70867728950E"}]},
             "latest_receipt_info": [{"product_id": "p", "transaction_id": "2", "purchase_date_ms": "1700000050000", "app_account_token": ""}]}
            """
        try await withForwarder(answering: { _ in .json(answer) }) { forwarder, _ in
            guard case .valid(let receipt) = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both) else {
                Issue.record("not valid")
                return
            }
            #expect(receipt.purchases.map(\.appAccountToken) == ["0F8FAD5B-D9CB-469F-A165-70867728950E", nil])
            #expect(receipt.purchases.map(\.statedDate) == [Date(timeIntervalSince1970: 1_700_000_100), Date(timeIntervalSince1970: 1_700_000_500)])
        }
    }

    @Test func noVerdictWithoutAnAnswerToRead() async throws {
        // HTTP 500, a redirect (not followed: the secret would travel with it), an oversized answer, not JSON.
        let cases: [(FakeAppStore.Answer, String)] = [
            (.http(500), "HTTP 500"), (.redirect("/elsewhere/verifyReceipt"), "HTTP 302"),
            (.json(#"{"status":0,"padding":"\#(String(repeating: "x", count: 2_000))"}"#), "larger than 1024 bytes"),
            (.json("<html>"), "not verifyReceipt's JSON"),
            (.json(#"{"status":0,"receipt":{"in_app":[{"product_id":"p"}]}}"#), "receipt.in_app[0] has no transaction_id"),
        ]
        for (answer, mentioned) in cases {
            try await withForwarder(maximumAnswerSize: 1_024, answering: { _ in answer }) { forwarder, store in
                let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both)
                guard case .unavailable(_, let reason) = verdict else {
                    Issue.record("\(answer): expected unavailable, got \(verdict)")
                    return
                }
                #expect(reason.contains(mentioned), "\(reason)")
                #expect(!reason.contains(Self.secret))
                #expect(await store.calls.count("elsewhere") == 0)
            }
        }
    }

    @Test func anUnreachableAppStoreIsUnavailable() async throws {
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        // Refused or timed out, the verdict is the same; a short timeout keeps the test short if the client keeps trying.
        let forwarder = ReceiptForwarder(
            configuration: .init(productionURL: "http://127.0.0.1:1/verifyReceipt", sharedSecret: Self.secret, timeout: .seconds(2)))
        let verdict = await forwarder.verify(receiptData: Self.receipt, accepting: Self.both)
        try await forwarder.shutdown()
        guard case .unavailable(status: nil, let reason) = verdict else {
            Issue.record("expected unavailable, got \(verdict)")
            return
        }
        #expect(reason.contains("could not be asked"))
    }

    @Test func receiptDataThatIsNotBase64IsRefusedWithoutAsking() async throws {
        try await withForwarder(answering: { _ in .status(0) }) { forwarder, store in
            for data in ["", "not base64!", "YQ"] {
                guard case .refused(status: nil, let meaning) = await forwarder.verify(receiptData: data, accepting: Self.both) else {
                    Issue.record("'\(data)' was not refused")
                    continue
                }
                #expect(meaning.contains("Base64"))
            }
            #expect(await store.calls.all.isEmpty)
        }
    }

    @Test func theConfigurationNeverShowsTheSharedSecret() {
        let configuration = ReceiptForwarder.Configuration(sharedSecret: Self.secret)
        #expect(!configuration.description.contains(Self.secret))
        #expect(configuration.description.contains("<redacted>"))
        #expect(configuration.productionURL == "https://buy.itunes.apple.com/verifyReceipt")
        #expect(configuration.sandboxURL == "https://sandbox.itunes.apple.com/verifyReceipt")
    }
}
