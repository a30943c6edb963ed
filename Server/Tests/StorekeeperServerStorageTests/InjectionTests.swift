import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// SQL in every field is stored as data: bound, never spliced into a statement.
@Suite struct InjectionTests {
    static let hostile = [
        "'; DROP TABLE transactions; --",
        "\" OR 1=1; DELETE FROM balances; --",
        "x'); DROP TABLE records; --",
        "? $1 ?? $2",
        "Robert'); DROP TABLE users;-- ☃ \u{1F600}",
    ]

    @Test(arguments: TestBackend.available)
    func sqlInEveryFieldIsStoredAsData(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            for (index, text) in Self.hostile.enumerated() {
                let user = "\(text)#\(index)"
                #expect(try await storage.register(user: user, appAccountToken: text + "-token").user == user)
                let transaction = StoredTransaction(
                    transactionID: text, user: user, originalTransactionID: text, productID: text, environment: text, quantity: 1,
                    purchaseDate: 1, signedDate: 1, payload: text)
                #expect(try await storage.keep(transaction) == .inserted)
                _ = try await storage.keep(StoredTransaction(
                    transactionID: "\(text)@\(index)", user: user, originalTransactionID: text, productID: text, environment: text,
                    quantity: 1, purchaseDate: 1, signedDate: 1, payload: text))
                let record = ServerRecord(transactionID: text, productID: text, strategy: text, kind: text, quantity: 1, receipt: text, purchaseDate: 1)
                #expect(try await storage.put(record, for: user) == .created)
                #expect(try await storage.apply(Grant(user: user, transactionID: text, balance: text, amount: 5, environment: text)))
                #expect(try await storage.spend(SpendRequest(user: user, key: text, balance: text, amount: 2, environment: text)) == .spent(remaining: 3))
                let subscription = SubscriptionRenewal(
                    originalTransactionID: text, status: 4, statusSignedDate: 1, gracePeriodExpiresDate: 2, renewalSignedDate: 1)
                #expect(try await storage.update(subscription))
                let notification = StoredNotification(
                    notificationUUID: "\(text)/\(index)", notificationType: text, subtype: text, environment: text, payload: text, receivedAt: Double(index))
                #expect(try await storage.receive(notification) == .new)

                #expect(try await storage.account(user: user)?.appAccountToken == text + "-token")
                #expect(try await storage.lookUpTransaction(text) == transaction)
                #expect(try await storage.records(of: user) == [record])
                #expect(try await storage.balances(of: user, environment: text) == [text: 3])
                #expect(try await storage.renewals(of: user) == [subscription])
                #expect(try await storage.notifications(limit: 1) == [notification])
            }
            // Every table is still there and holds what was put in it.
            #expect(try await storage.lookUpTransaction(Self.hostile[0])?.user == "\(Self.hostile[0])#0")
            #expect(try await storage.notifications(limit: 100).count == Self.hostile.count)
        }
    }
}
