import Foundation
import StorekeeperJSON
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing

/// What the test chain signs, checked by Apple's own verifier (the App Store
/// Server Library for Python, `SignedDataVerifier`): it accepts the valid
/// chain's transactions, renewal info and notifications and decodes them to
/// the fields written, and refuses every variant a server must refuse, each
/// for its own reason, so the oracle is shown able to fail.
@Suite struct SignedDataOracleTests {
    static let chain = Result { try TestCertificateChain(options: .init(seed: 17)) }

    // MARK: Accepted

    @Test func eachProductTypesTransactionVerifiesAndDecodesToTheFieldsWritten() throws {
        let chain = try Self.chain.get()
        let signer = SignedDataSigner(chain: chain)
        let payloads = OracleFixtures.transactions()
        let verdicts = try AppStoreOracle.verify(payloads.map { .init(jws: try signer.sign($0.json), root: chain.rootDER) })
        let expectedTypes = ["CONSUMABLE", "NON_CONSUMABLE", "AUTO_RENEWABLE_SUBSCRIPTION", "NON_RENEWING_SUBSCRIPTION"]
        for (index, (payload, verdict)) in zip(payloads, verdicts).enumerated() {
            guard case .accepted(let decoded, let enums) = verdict else {
                Issue.record("\(payload.type.rawValue): \(verdict)")
                continue
            }
            // Every member written comes back, with nothing added or lost.
            #expect(decoded == payload.json.members, "\(payload.type.rawValue)")
            #expect(enums["type"] == expectedTypes[index], "\(enums)")
            #expect(enums["environment"] == "SANDBOX")
        }
        // Spot checks of what the oracle's own model read, beyond the round trip.
        #expect(verdicts[0].payload?["appAccountToken"] == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(verdicts[0].payload?["price"] == 990)
        #expect(verdicts[1].payload?["revocationReason"] == 1)
        #expect(verdicts[2].payload?["transactionReason"] == "RENEWAL")
        #expect(verdicts[2].payload?["expiresDate"] == .integer(1_769_900_400_000))
        if case .accepted(_, let enums) = verdicts[1] {
            #expect(enums["inAppOwnershipType"] == "FAMILY_SHARED")
            #expect(enums["revocationReason"] == "REFUNDED_DUE_TO_ISSUE")
        }
    }

    @Test func productionTransactionsAndNotificationsVerifyInProduction() throws {
        let chain = try Self.chain.get()
        let signer = SignedDataSigner(chain: chain)
        let transaction = OracleFixtures.transactions(environment: .production)[1]
        let signedTransaction = try signer.sign(transaction.json)
        let notification = NotificationPayload(
            notificationType: .refund, notificationUUID: UUID(), appAppleID: 1_234_567_890, bundleID: OracleFixtures.bundleID,
            environment: .production, signedTransactionInfo: signedTransaction, signedDate: OracleFixtures.signedDate)
        let verdicts = try AppStoreOracle.verify([
            .init(jws: signedTransaction, root: chain.rootDER, environment: .production, appAppleID: 1_234_567_890),
            .init(kind: .notification, jws: try signer.sign(notification.json), root: chain.rootDER, environment: .production,
                  appAppleID: 1_234_567_890),
            // Production requires the app's id to match.
            .init(kind: .notification, jws: try signer.sign(notification.json), root: chain.rootDER, environment: .production,
                  appAppleID: 987),
        ])
        #expect(verdicts[0].payload == transaction.json.members, "\(verdicts[0])")
        #expect(verdicts[1].payload?["notificationType"] == "REFUND", "\(verdicts[1])")
        #expect(verdicts[1].payload?["data"]?.members["signedTransactionInfo"] == .string(signedTransaction))
        guard case .refused(let status, _) = verdicts[2] else {
            Issue.record("another app's notification was accepted: \(verdicts[2])")
            return
        }
        #expect(status == "INVALID_APP_IDENTIFIER")
    }

    @Test func aSubscriptionsNotificationCarriesRenewalInfoAndATransactionThatVerifyInTurn() throws {
        let chain = try Self.chain.get()
        let signer = SignedDataSigner(chain: chain)
        let transaction = OracleFixtures.transactions()[2]
        let renewal = RenewalInfoPayload(
            originalTransactionID: transaction.originalTransactionID, productID: transaction.productID, autoRenews: false,
            expirationIntent: .customerCancelled, signedDate: OracleFixtures.signedDate, environment: .sandbox,
            recentSubscriptionStartDate: transaction.originalPurchaseDate, renewalDate: transaction.expiresDate,
            appAccountToken: OracleFixtures.token, renewalPrice: 4_990, currency: "EUR")
        let notification = NotificationPayload(
            notificationType: .didChangeRenewalStatus, subtype: .autoRenewDisabled,
            notificationUUID: try #require(UUID(uuidString: "002E14D5-51F5-4503-B5A8-C3A1AF68EB20")), bundleID: OracleFixtures.bundleID,
            bundleVersion: "42", environment: .sandbox, signedTransactionInfo: try signer.sign(transaction.json),
            signedRenewalInfo: try signer.sign(renewal.json), status: .active, signedDate: OracleFixtures.signedDate)
        let signedNotification = try signer.sign(notification.json)
        let outer = try AppStoreOracle.verify(.init(kind: .notification, jws: signedNotification, root: chain.rootDER))
        guard case .accepted(let decoded, let enums) = outer else {
            Issue.record("\(outer)")
            return
        }
        #expect(JSONValue.object(decoded.map { (key: $0.key, value: $0.value) }).sortedMembers == notification.json.sortedMembers)
        #expect(enums["notificationType"] == "DID_CHANGE_RENEWAL_STATUS")
        #expect(enums["subtype"] == "AUTO_RENEW_DISABLED")
        #expect(enums["data.status"] == "ACTIVE")
        #expect(decoded["notificationUUID"] == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(decoded["version"] == "2.0")

        // The server then verifies what the notification carries, each with the same verifier.
        let data = decoded["data"]?.members ?? [:]
        guard case .string(let signedTransaction)? = data["signedTransactionInfo"],
              case .string(let signedRenewal)? = data["signedRenewalInfo"] else {
            Issue.record("the notification's data lost its signed parts: \(data)")
            return
        }
        let inner = try AppStoreOracle.verify([
            .init(kind: .transaction, jws: signedTransaction, root: chain.rootDER),
            .init(kind: .renewal, jws: signedRenewal, root: chain.rootDER),
        ])
        #expect(inner[0].payload == transaction.json.members, "\(inner[0])")
        #expect(inner[1].payload == renewal.json.members, "\(inner[1])")
        #expect(inner[1].payload?["autoRenewStatus"] == 0)
    }

    // MARK: Refused

    /// One payload signed by each chain variant and altered in each way a
    /// server must refuse, verified against the valid chain's root, beside
    /// the same payload signed correctly (accepted: the refusals come from
    /// the variant, not from the payload or the verifier's setup).
    @Test func theOracleRefusesEveryVariantForItsOwnReason() throws {
        let chain = try Self.chain.get()
        let signer = SignedDataSigner(chain: chain)
        let payload = OracleFixtures.transactions()[1]
        let valid = try signer.sign(payload.json, certificates: chain.x5c)
        var tampered = payload
        tampered.productID = "com.example.signing.everything"
        guard case .object(let header) = try valid.header else {
            Issue.record("the header is not an object")
            return
        }

        struct Case { var name: String; var jws: String; var status: String; var cause: String }
        func signed(by variant: TestCertificateChain.Variant) throws -> String {
            try SignedDataSigner(chain: chain.variant(variant)).sign(payload.json)
        }
        let cases = [
            Case(name: "another root, same names", jws: try signed(by: .otherRoot), status: "VERIFICATION_FAILURE",
                 cause: "unable to get local issuer certificate"),
            Case(name: "leaf without Apple's OID", jws: try signed(by: .leafWithoutMarker), status: "VERIFICATION_FAILURE",
                 cause: "1.2.840.113635.100.6.11.1"),
            Case(name: "intermediate without Apple's OID", jws: try signed(by: .intermediateWithoutMarker), status: "VERIFICATION_FAILURE",
                 cause: "1.2.840.113635.100.6.2.1"),
            Case(name: "leaf expired at the signedDate", jws: try signed(by: .expiredLeaf), status: "VERIFICATION_FAILURE",
                 cause: "certificate has expired"),
            Case(name: "payload altered under the signature", jws: valid.replacingPayload(tampered.json).description,
                 status: "VERIFICATION_FAILURE", cause: "Signature verification failed"),
            Case(name: "header altered under the signature",
                 jws: valid.replacingHeader(.object(header + [(key: "kid", value: "other")])).description,
                 status: "VERIFICATION_FAILURE", cause: "Signature verification failed"),
            Case(name: "alg none, no signature", jws: try valid.unsecured().description, status: "VERIFICATION_FAILURE",
                 cause: "Algorithm was not ES256"),
            Case(name: "two certificates", jws: try signer.sign(payload.json, certificates: Array(chain.x5c.prefix(2))).description,
                 status: "INVALID_CHAIN_LENGTH", cause: "INVALID_CHAIN_LENGTH"),
            Case(name: "another app", jws: try signer.sign(payload.json), status: "INVALID_APP_IDENTIFIER", cause: "INVALID_APP_IDENTIFIER"),
        ]
        var requests = [AppStoreOracle.Request(jws: valid.description, root: chain.rootDER)]
        requests += cases.map { AppStoreOracle.Request(jws: $0.jws, root: chain.rootDER) }
        requests[requests.count - 1].bundleID = "com.example.other"
        let verdicts = try AppStoreOracle.verify(requests)

        #expect(verdicts[0].payload == payload.json.members, "the untouched payload: \(verdicts[0])")
        for (test, verdict) in zip(cases, verdicts.dropFirst()) {
            guard case .refused(let status, let cause) = verdict else {
                Issue.record("\(test.name): accepted")
                continue
            }
            #expect(status == test.status, "\(test.name): \(cause)")
            #expect(cause.contains(test.cause), "\(test.name): \(cause)")
        }
    }

    @Test func theOracleRefusesAnotherEnvironment() throws {
        let chain = try Self.chain.get()
        let jws = try SignedDataSigner(chain: chain).sign(OracleFixtures.transactions(environment: .production)[0].json)
        let verdict = try AppStoreOracle.verify(.init(jws: jws, root: chain.rootDER, environment: .sandbox))
        guard case .refused(let status, _) = verdict else {
            Issue.record("a production transaction verified in the sandbox: \(verdict)")
            return
        }
        #expect(status == "INVALID_ENVIRONMENT")
    }
}
