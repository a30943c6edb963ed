import Foundation
import StorekeeperJSON
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing

/// What the notification routes answer: 200 once committed (and for a retry, changing nothing
/// twice), 400 for malformed or forged data with nothing stored, 503 for a storage failure with
/// the notification kept for the retry; types that change nothing are stored and acknowledged.
@Suite struct NotificationIntakeTests {
    let fixture: NotificationFixture
    let token = UUID()

    init() throws { fixture = try NotificationFixture() }

    func purchase(_ type: NotificationPayload.NotificationType = .oneTimeCharge, uuid: UUID = UUID(), token: UUID? = nil) throws -> String {
        let signed = NotificationFixture.start
        return try fixture.notification(
            type, uuid: uuid,
            transaction: try fixture.transaction("700", product: NotificationFixture.coins, token: token ?? self.token, signed: signed),
            signed: signed)
    }

    @Test(arguments: TestBackend.available)
    func malformedAndForgedBodiesAre400AndNothingIsStored(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            let forger = SignedDataSigner(chain: try TestCertificateChain(options: .init(seed: 99)))
            let signed = NotificationFixture.start
            let forgedTransaction = try forger.sign(
                TransactionPayload(
                    transactionID: "700", bundleID: NotificationFixture.bundleID, productID: NotificationFixture.coins, purchaseDate: signed,
                    type: .consumable, appAccountToken: token, signedDate: signed, environment: .sandbox
                ).json)
            let cases: [(body: [UInt8], code: String, mentions: String)] = [
                (Array("not json".utf8), "malformed-notification", "not JSON"),
                (Array("[]".utf8), "malformed-notification", "not a JSON object"),
                (Array(#"{"payload": "x"}"#.utf8), "malformed-notification", "no signedPayload"),
                (Array(#"{"signedPayload": 7}"#.utf8), "malformed-notification", "not a non-empty string"),
                ([UInt8](repeating: 32, count: NotificationProcessor.maximumBodySize + 1), "malformed-notification", "bytes"),
                (NotificationFixture.body("a.b.c"), "notification-not-verified", "malformedJWS"),
                // Signed by another chain than the App Store's (here: the test root's).
                (NotificationFixture.body(try forger.sign(try JSONParser().parse(try purchasePayloadJSON()))), "notification-not-verified", "untrustedChain"),
                // A production notification on the sandbox route.
                (NotificationFixture.body(try fixture.notification(.test, signed: signed, environment: .production)), "notification-not-verified", "wrongEnvironment"),
                // A genuine notification carrying a forged transaction.
                (NotificationFixture.body(try fixture.notification(.oneTimeCharge, transaction: forgedTransaction, signed: signed)),
                 "notification-not-verified", "signedTransactionInfo"),
            ]
            for (body, code, mentions) in cases {
                let answer = await processor.receive(body: body)
                #expect(answer.status == 400, "\(answer)")
                #expect(answer.code == code, "\(answer)")
                #expect(answer.message?.contains(mentions) == true, "\(answer)")
                #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix(#"{"error":{"code":"\#(code)","message":"#))
            }
            #expect(try await storage.notifications(limit: 100).isEmpty)
            #expect(try await storage.balances(of: "alice").isEmpty)
        }
    }

    /// The JSON of a genuine purchase notification's payload (to be signed by someone else).
    func purchasePayloadJSON() throws -> String {
        let jws = try purchase()
        let middle = jws.split(separator: ".")[1]
        var base64 = middle.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self)
    }

    @Test(arguments: TestBackend.available)
    func aRetryIsAcknowledgedAndAppliedOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            let notification = try purchase()
            #expect(await processor.receive(notification) == .acknowledged)
            #expect(await processor.receive(notification) == .acknowledged)
            // The same purchase under another notification (ONE_TIME_CHARGE and a later one): granted once.
            #expect(await processor.receive(try purchase(.didChangeRenewalStatus)) == .acknowledged)
            #expect(try await storage.balances(of: "alice") == ["coins": 100])
            let stored = try await storage.notifications(limit: 10)
            #expect(stored.count == 2)
            #expect(stored.allSatisfy { $0.processedAt != nil && $0.environment == "Sandbox" })
        }
    }

    @Test(arguments: TestBackend.available)
    func aStorageFailureIs503AndTheRetryAppliesIt(backend: TestBackend) async throws {
        try await backend.withStorage { (base: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await base.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let storage = FaultyStorage(base, failing: "process", times: 1)
            let processor = fixture.processor(storage)
            let uuid = UUID()
            let notification = try purchase(uuid: uuid)
            let failed = await processor.receive(notification)
            #expect(failed.status == 503)
            #expect(failed.code == "storage-unavailable")
            // Kept, unprocessed, for the retry; nothing applied.
            let kept = try await base.notifications(limit: 10)
            #expect(kept.map(\.notificationUUID) == [uuid.uuidString.lowercased()])
            #expect(kept.first?.processedAt == nil)
            #expect(try await base.balances(of: "alice").isEmpty)
            #expect(await processor.receive(notification) == .acknowledged)
            #expect(try await base.balances(of: "alice") == ["coins": 100])
            #expect(try await base.notifications(limit: 10).first?.processedAt != nil)
        }
    }

    @Test(arguments: TestBackend.available)
    func testAndUnknownTypesAreStoredAndChangeNothing(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processor = fixture.processor(storage)
            #expect(await processor.receive(try fixture.notification(.test, signed: NotificationFixture.start)) == .acknowledged)
            #expect(await processor.receive(try purchase("SOMETHING_APPLE_ADDS_LATER")) == .acknowledged)
            let stored = try await storage.notifications(limit: 10)
            #expect(Set(stored.map(\.notificationType)) == ["TEST", "SOMETHING_APPLE_ADDS_LATER"])
            #expect(stored.allSatisfy { $0.processedAt != nil })
            #expect(try await storage.lookUpTransaction("700") == nil)
            #expect(try await storage.balances(of: "alice").isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func theUserIsTheTokensElseTheHolderOfTheTransactionElseNobody(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let processor = fixture.processor(storage)
            // Nobody: stored and acknowledged, no ledger changed, a consumption request kept without a user.
            let stranger = UUID()
            #expect(await processor.receive(try purchase(token: stranger)) == .acknowledged)
            #expect(await processor.receive(try purchase("CONSUMPTION_REQUEST", token: stranger)) == .acknowledged)
            #expect(try await storage.lookUpTransaction("700") == nil)
            #expect(try await storage.notifications(limit: 10).count == 2)
            #expect(try await storage.consumptionRequests().map(\.user) == [nil])

            // The holder: bob posted the first period himself (no token in it); a renewal arrives.
            _ = try await storage.keep(
                StoredTransaction(
                    transactionID: "500", user: "bob", originalTransactionID: "500", productID: NotificationFixture.monthly,
                    environment: "Sandbox", quantity: 1, purchaseDate: 0, signedDate: 0, payload: "jws"))
            let signed = NotificationFixture.start
            let renewal = try fixture.notification(
                .didRenew,
                transaction: try fixture.signer.sign(
                    TransactionPayload(
                        transactionID: "501", originalTransactionID: "500", bundleID: NotificationFixture.bundleID,
                        productID: NotificationFixture.monthly, purchaseDate: signed,
                        expiresDate: signed.addingTimeInterval(NotificationFixture.month), type: .autoRenewableSubscription,
                        signedDate: signed, environment: .sandbox
                    ).json),
                signed: signed)
            #expect(await processor.receive(renewal) == .acknowledged)
            #expect(try await storage.transactions(of: "bob").map(\.transactionID) == ["500", "501"])
        }
    }

    @Test(arguments: TestBackend.available)
    func theSameNotificationOnTwoInstancesAtOnceIsAppliedOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            _ = try await first.register(user: "alice", appAccountToken: token.uuidString.lowercased())
            let processors = [fixture.processor(first), fixture.processor(second)]
            let body = NotificationFixture.body(try purchase())
            let answers = await withTaskGroup(of: NotificationAnswer.self) { group in
                for index in 0..<20 {
                    let processor = processors[index % 2]
                    group.addTask { await processor.receive(body: body) }
                }
                var all: [NotificationAnswer] = []
                for await answer in group { all.append(answer) }
                return all
            }
            #expect(answers.allSatisfy { $0 == .acknowledged }, "\(answers.filter { $0 != .acknowledged })")
            #expect(try await second.balances(of: "alice") == ["coins": 100])
            #expect(try await second.notifications(limit: 10).count == 1)
        }
    }
}
