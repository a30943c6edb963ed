import Foundation
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing
@testable import StorekeeperVerification

/// What a verified payload decodes to: the members written, dates from milliseconds.
@Suite struct DecodingTests {
    @Test func aTransactionDecodesToTheMembersWritten() async throws {
        let chain = try OracleAgreementTests.corpus.get().chain
        let verifier = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: VerificationCorpus.bundleID, environment: .production,
                                              appAppleID: VerificationCorpus.appAppleID)
        let written = VerificationCorpus.transactions(environment: .production)[2]
        let transaction = try await verifier.verifyTransaction(try SignedDataSigner(chain: chain).sign(written.json))
        #expect(transaction.environment == .production)
        #expect(transaction.transactionID == "3000000004")
        #expect(transaction.originalTransactionID == "3000000003")
        #expect(transaction.webOrderLineItemID == "13000000004")
        #expect(transaction.productID == "com.example.verify.plus.monthly")
        #expect(transaction.subscriptionGroupIdentifier == "premium")
        #expect(transaction.type == "Auto-Renewable Subscription")
        #expect(transaction.transactionReason == "RENEWAL")
        #expect(transaction.price == 4_990 && transaction.currency == "EUR")
        #expect(transaction.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(transaction.purchaseDate == written.purchaseDate)
        #expect(transaction.expiresDate == written.expiresDate)
        #expect(transaction.signedDate == VerificationCorpus.signedDate)
        #expect(transaction.storefront == "USA" && transaction.storefrontID == "143441")
    }

    @Test func aNotificationCarriesSignedDataThatVerifiesInTurn() async throws {
        let chain = try OracleAgreementTests.corpus.get().chain
        let signer = SignedDataSigner(chain: chain)
        let verifier = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: VerificationCorpus.bundleID, environment: .sandbox)
        let notification = try await verifier.verifyNotification(
            try signer.sign(try VerificationCorpus.notification(environment: .sandbox, signer: signer).json))
        #expect(notification.notificationType == "DID_CHANGE_RENEWAL_STATUS")
        #expect(notification.subtype == "AUTO_RENEW_DISABLED")
        #expect(notification.version == "2.0")
        #expect(notification.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        let data = try #require(notification.data)
        #expect(data.appAppleID == VerificationCorpus.appAppleID && data.bundleVersion == "42" && data.status == 1)
        let transaction = try await verifier.verifyTransaction(try #require(data.signedTransactionInfo))
        let renewal = try await verifier.verifyRenewalInfo(try #require(data.signedRenewalInfo))
        #expect(transaction.productID == "com.example.verify.plus.monthly")
        #expect(renewal.autoRenewStatus == 0 && renewal.expirationIntent == 1 && renewal.renewalPrice == 4_990)
        #expect(renewal.originalTransactionID == transaction.originalTransactionID)
    }

    @Test func refusalsNameWhatFailed() async throws {
        let corpus = try OracleAgreementTests.corpus.get()
        func message(_ name: String, _ kind: PythonOracle.Request.Kind = .transaction) async throws -> String {
            let test = try #require(corpus.cases.first { $0.name == name && $0.kind == kind })
            guard case .failure(let failure) = await OracleAgreementTests.decide(test, root: corpus.chain.rootDER) else {
                Issue.record("\(test) accepted")
                return ""
            }
            return failure.message
        }
        #expect(try await message("leaf without Apple's OID").contains("leaf certificate 'CN="))
        #expect(try await message("leaf without Apple's OID").contains("1.2.840.113635.100.6.11.1"))
        #expect(try await message("intermediate without Apple's OID").contains("1.2.840.113635.100.6.2.1"))
        #expect(try await message("leaf expired at the signedDate")
            .contains("expired at 2020-01-02T00:00:00Z, before the payload's signedDate 2026-01-01T00:00:00Z"))
        #expect(try await message("another root with the same names").contains("no trusted root"))
        #expect(try await message("alg none, no signature").contains("alg \"none\""))
        #expect(try await message("two certificates").contains("has 2 certificates"))
        #expect(try await message("another app's bundle id") == "the transaction is for the bundle id 'com.example.verify'; this verifier expects 'com.example.other'")
        #expect(try await message("a sandbox payload on the production route", .notification)
            == "the notification is from the environment 'Sandbox'; this verifier accepts 'Production' only")
        #expect(try await message("another app's Apple id in production", .notification)
            == "the notification is for the app Apple id 1234567890; this verifier expects 987654321")
    }
}
