import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing

/// The simulated store asked to sign (docs/simulate.md, "Signed
/// transactions"): every purchased, restored and renewed transaction it
/// delivers carries a `signedTransaction` that Apple's verifier accepts with
/// the test chain's root and decodes to the transaction's identifiers,
/// product, dates and the user's appAccountToken; nothing else is signed, and
/// a store not asked to sign delivers what it always did.
@Suite struct SimulatedStoreSigningTests {
    static let chain = Result { try TestCertificateChain(options: .init(seed: 29)) }
    static let user = "player-8f14e45f"

    static func signing(_ environment: AppStoreEnvironment = .sandbox) throws -> TransactionSigning {
        TransactionSigning(signer: TestChainTransactionSigner(chain: try chain.get()), bundleID: OracleFixtures.bundleID,
                           environment: environment, appAccountToken: OracleFixtures.appAccountToken(forUser:))
    }

    /// The oracle's verdicts on the transactions' signed forms, each required to be there.
    static func verify(_ transactions: [StoreTransaction], environment: AppStoreEnvironment = .sandbox,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [[String: JSONValue]] {
        let root = try chain.get().rootDER
        let requests = try transactions.map { transaction in
            AppStoreOracle.Request(jws: try #require(transaction.info.signedTransaction, "\(transaction.id) unsigned", sourceLocation: sourceLocation),
                                   root: root, environment: environment, appAppleID: environment == .production ? 1_234_567_890 : nil)
        }
        return try AppStoreOracle.verify(requests).map { verdict in
            try #require(verdict.payload, "\(verdict)", sourceLocation: sourceLocation)
        }
    }

    static func milliseconds(_ date: Date?) -> JSONValue? {
        date.map { .integer(Int(($0.timeIntervalSince1970 * 1_000).rounded())) }
    }

    @Test func purchasesOfEachTypeAreSignedAndTheOracleReadsTheirIdsProductDatesAndToken() async throws {
        let account = try SigningStore(signing: Self.signing())
        _ = await account.launch()
        var purchased: [StoreTransaction] = []
        for product in [SigningStore.coins, SigningStore.pro, SigningStore.plus, SigningStore.pass] {
            let updates = await account.buy(product, quantity: product == SigningStore.coins ? 2 : 1, user: Self.user)
            #expect(updates.map(\.info.state) == [.purchasing, .purchased], "\(product)")
            #expect(updates.first?.info.signedTransaction == nil, "a payment in progress is no StoreKit 2 transaction")
            purchased += updates.suffix(1)
        }
        let decoded = try Self.verify(purchased)
        let token = try OracleFixtures.pythonUUID5(Self.user)
        let types = ["Consumable", "Non-Consumable", "Auto-Renewable Subscription", "Non-Renewing Subscription"]
        for (index, (transaction, payload)) in zip(purchased, decoded).enumerated() {
            #expect(payload["transactionId"] == .string(transaction.id))
            #expect(payload["originalTransactionId"] == .string(transaction.id))
            #expect(payload["productId"] == .string(transaction.info.productID))
            #expect(payload["bundleId"] == .string(OracleFixtures.bundleID))
            #expect(payload["appAccountToken"] == .string(token), "the token Python's uuid5 derives from the user")
            #expect(payload["type"] == .string(types[index]))
            #expect(payload["quantity"] == .integer(transaction.info.quantity))
            #expect(payload["purchaseDate"] == Self.milliseconds(transaction.purchaseDate))
            #expect(payload["signedDate"] == Self.milliseconds(OracleFixtures.signedDate))
            #expect(payload["transactionReason"] == "PURCHASE")
            #expect(payload["environment"] == "Sandbox")
            #expect(payload["revocationDate"] == nil)
        }
        let subscription = decoded[2]
        #expect(subscription["expiresDate"] == Self.milliseconds(purchased[2].expirationDate))
        #expect(subscription["expiresDate"] != nil)
        #expect(subscription["subscriptionGroupIdentifier"] == "premium")
        #expect(subscription["webOrderLineItemId"] == .string("1\(purchased[2].id)"))
        #expect(decoded[0]["webOrderLineItemId"] == nil)
        #expect(decoded[0]["subscriptionGroupIdentifier"] == nil)
    }

    @Test func renewalsAndRestoresAreSignedWithTheirOriginalPurchase() async throws {
        let account = try SigningStore(signing: Self.signing(.production))
        _ = await account.launch()
        let first = try await account.buyAndFinish(SigningStore.plus, user: Self.user)
        let pro = try await account.buyAndFinish(SigningStore.pro)
        let renewedAt = try #require(first.expirationDate)
        await account.store.advance(to: renewedAt.addingTimeInterval(60))
        let renewal = try #require(await account.updates().first)
        #expect(renewal.originalID == first.id)
        try await account.device.finish(transactionID: renewal.id)

        await account.device.restoreCompletedTransactions(applicationUsername: Self.user)
        // The subscription's purchase and its renewal, and the non-consumable.
        let restored = await account.updates()
        #expect(restored.map(\.info.state) == [.restored, .restored, .restored])
        let decoded = try Self.verify([renewal] + restored, environment: .production)

        #expect(decoded[0]["transactionId"] == .string(renewal.id))
        #expect(decoded[0]["originalTransactionId"] == .string(first.id))
        #expect(decoded[0]["transactionReason"] == "RENEWAL")
        #expect(decoded[0]["purchaseDate"] == Self.milliseconds(renewedAt), "a renewal's period starts where the last ended")
        #expect(decoded[0]["originalPurchaseDate"] == Self.milliseconds(first.purchaseDate))
        #expect(decoded[0]["signedDate"] == Self.milliseconds(renewedAt), "signed when the store renewed it")
        #expect(decoded[0]["environment"] == "Production")

        let token = try OracleFixtures.pythonUUID5(Self.user)
        for (transaction, payload) in zip(restored, decoded.dropFirst()) {
            // Each restore is signed under its own identifier, its original the first purchase.
            #expect(payload["transactionId"] == .string(transaction.id))
            #expect(payload["productId"] == .string(transaction.info.productID))
            #expect(payload["purchaseDate"] == Self.milliseconds(transaction.purchaseDate))
            if transaction.info.productID == SigningStore.pro {
                #expect(payload["originalTransactionId"] == .string(pro.id))
                #expect(payload["appAccountToken"] == nil, "bought without a user: no token")
            } else {
                #expect(payload["originalTransactionId"] == .string(first.id))
                #expect(payload["appAccountToken"] == .string(token))
                #expect(payload["expiresDate"] == Self.milliseconds(transaction.expirationDate))
            }
        }
        #expect(Set(restored.map(\.info.productID)) == [SigningStore.pro, SigningStore.plus])
    }

    @Test func aRefundedPurchaseDeliveredAgainCarriesItsRevocation() async throws {
        let account = try SigningStore(signing: Self.signing())
        _ = await account.launch()
        let bought = try #require(await account.buy(SigningStore.pro).last)
        // The app dies before finishing; the user is refunded an hour later.
        await account.store.disconnect("phone")
        let refundedAt = OracleFixtures.signedDate.addingTimeInterval(3_600)
        await account.store.advance(to: refundedAt)
        try await account.store.refund(bought.id, reason: .refund)
        let redelivered = try #require(await account.launch().first { $0.id == bought.id })
        let payload = try #require(try Self.verify([redelivered]).first)
        #expect(payload["revocationDate"] == Self.milliseconds(refundedAt))
        #expect(payload["revocationReason"] == 0)
        #expect(payload["transactionId"] == .string(bought.id))
    }

    @Test func failedDeferredAndUnsignedStoresDeliverNoSignedTransaction() async throws {
        let account = try SigningStore(signing: Self.signing())
        _ = await account.launch()
        let failed = await account.buy(SigningStore.pro, outcome: .fail(.paymentCancelled))
        #expect(failed.map(\.info.state) == [.purchasing, .failed])
        let deferred = await account.buy(SigningStore.pro, outcome: .askToBuy)
        #expect(deferred.map(\.info.state) == [.purchasing, .deferred])
        #expect((failed + deferred).allSatisfy { $0.info.signedTransaction == nil })

        // Signing stops and starts at the store's word.
        await account.store.setSigning(nil)
        let unsigned = try #require(await account.buy(SigningStore.coins).last)
        #expect(unsigned.info.state == .purchased)
        #expect(unsigned.info.signedTransaction == nil)
        await account.store.setSigning(try Self.signing())
        #expect(try #require(await account.buy(SigningStore.coins).last).info.signedTransaction != nil)

        // A store made without signing delivers what it always did.
        let plain = try SigningStore(signing: nil)
        _ = await plain.launch()
        let purchase = try #require(await plain.buy(SigningStore.pro, user: Self.user).last)
        #expect(purchase.info.state == .purchased)
        #expect(purchase.info.signedTransaction == nil)
        #expect(purchase.info.receipt != nil)
    }

    @Test func aSignerThatFailsLeavesTheTransactionUnsignedAndTheTraceSaysWhy() async throws {
        struct BrokenSigner: TransactionSigner {
            func signedTransaction(for facts: SignedTransactionFacts) throws -> String {
                throw TestChainError("no key for \(facts.productID)")
            }
        }
        let account = try SigningStore(signing: TransactionSigning(signer: BrokenSigner(), bundleID: OracleFixtures.bundleID))
        _ = await account.launch()
        let purchase = try #require(await account.buy(SigningStore.pro).last)
        #expect(purchase.info.state == .purchased)
        #expect(purchase.info.signedTransaction == nil)
        #expect(account.notes.contains("\(purchase.id) \(SigningStore.pro) delivered unsigned: the signer failed: no key for \(SigningStore.pro)"),
                "\(account.notes)")
    }

    @Test func aProductTheCatalogLacksIsDeliveredUnsignedAndTheTraceSaysWhy() async throws {
        let account = try SigningStore(signing: Self.signing())
        _ = await account.launch()
        let purchase = try #require(await account.buy("com.example.signing.unknown").last)
        #expect(purchase.info.state == .purchased)
        #expect(purchase.info.signedTransaction == nil)
        #expect(account.notes.contains("\(purchase.id) com.example.signing.unknown delivered unsigned: the catalog has no product com.example.signing.unknown"),
                "\(account.notes)")
    }
}
