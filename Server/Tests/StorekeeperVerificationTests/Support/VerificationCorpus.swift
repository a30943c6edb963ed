import Foundation
import StorekeeperJSON
import StorekeeperSimulatedStore
import StorekeeperTestChain
@testable import StorekeeperVerification

/// Signed data made with the test chain, valid and altered in every way a
/// server must refuse, each with the verifier's configuration and the reason
/// it must give: what the verifier and Apple's library both decide on.
struct VerificationCorpus {
    struct Case: CustomStringConvertible {
        var name: String
        var kind: PythonOracle.Request.Kind
        var jws: String
        var environment: SignedDataVerifier.Environment = .sandbox
        var bundleID: String = VerificationCorpus.bundleID
        var appAppleID: Int64?
        /// nil: accepted.
        var expected: VerificationFailure.Reason?

        var description: String { "\(kind.rawValue): \(name)" }
    }

    static let bundleID = "com.example.verify"
    static let appAppleID: Int64 = 1_234_567_890
    /// 2026-01-01T00:00:00Z, inside the test chain's validity (2020 to 2050).
    static let signedDate = Date(timeIntervalSince1970: 1_767_225_600)
    /// 2051-01-01T00:00:00Z, after every certificate of the chain expired.
    static let afterTheChain = Date(timeIntervalSince1970: 2_556_144_000)
    /// 2019-06-01T00:00:00Z, before any certificate of the chain is valid.
    static let beforeTheChain = Date(timeIntervalSince1970: 1_559_347_200)

    let chain: TestCertificateChain
    let cases: [Case]

    init(seed: UInt64 = 18) throws {
        let chain = try TestCertificateChain(options: .init(seed: seed))
        self.chain = chain
        let signer = SignedDataSigner(chain: chain)
        var cases: [Case] = []

        // MARK: Valid, in both App Store environments.
        for environment in [AppStoreEnvironment.sandbox, .production] {
            let ours = SignedDataVerifier.Environment(rawValue: environment.rawValue) ?? .sandbox
            let appID = environment == .production ? Self.appAppleID : nil
            for transaction in Self.transactions(environment: environment) {
                cases.append(Case(name: "valid \(transaction.type.rawValue)", kind: .transaction, jws: try signer.sign(transaction.json),
                                  environment: ours, appAppleID: appID))
            }
            cases.append(Case(name: "valid renewal info", kind: .renewal, jws: try signer.sign(Self.renewal(environment: environment).json),
                              environment: ours, appAppleID: appID))
            cases.append(Case(name: "valid notification", kind: .notification,
                              jws: try signer.sign(try Self.notification(environment: environment, signer: signer).json),
                              environment: ours, appAppleID: appID))
        }

        // MARK: Refused, for each kind of signed data.
        for kind in [PythonOracle.Request.Kind.transaction, .renewal, .notification] {
            func payload(signedDate: Date = Self.signedDate, environment: AppStoreEnvironment = .sandbox) throws -> JSONValue {
                switch kind {
                case .transaction: Self.transactions(environment: environment, signedDate: signedDate)[2].json
                case .renewal: Self.renewal(environment: environment, signedDate: signedDate).json
                case .notification: try Self.notification(environment: environment, signedDate: signedDate, signer: signer).json
                }
            }
            func signed(by variant: TestCertificateChain.Variant) throws -> String {
                try SignedDataSigner(chain: chain.variant(variant)).sign(try payload())
            }
            let valid = try signer.sign(try payload(), certificates: chain.x5c)
            guard case .object(let header) = try valid.header, case .object(var altered) = try payload() else {
                throw PythonOracle.Failure(description: "the test chain signed a header or payload that is not an object")
            }
            altered.append((key: "note", value: "added after signing"))
            cases += [
                Case(name: "another root with the same names", kind: kind, jws: try signed(by: .otherRoot), expected: .untrustedChain),
                Case(name: "leaf without Apple's OID", kind: kind, jws: try signed(by: .leafWithoutMarker), expected: .missingAppleMarker),
                Case(name: "intermediate without Apple's OID", kind: kind, jws: try signed(by: .intermediateWithoutMarker),
                     expected: .missingAppleMarker),
                Case(name: "leaf expired at the signedDate", kind: kind, jws: try signed(by: .expiredLeaf), expected: .untrustedChain),
                Case(name: "signedDate after the chain's validity", kind: kind, jws: try signer.sign(try payload(signedDate: Self.afterTheChain)),
                     expected: .untrustedChain),
                Case(name: "signedDate before the chain's validity", kind: kind, jws: try signer.sign(try payload(signedDate: Self.beforeTheChain)),
                     expected: .untrustedChain),
                Case(name: "payload altered under the signature", kind: kind, jws: valid.replacingPayload(.object(altered)).description,
                     expected: .invalidSignature),
                Case(name: "header altered under the signature", kind: kind,
                     jws: valid.replacingHeader(.object(header + [(key: "kid", value: "other")])).description, expected: .invalidSignature),
                Case(name: "alg none, no signature", kind: kind, jws: try valid.unsecured().description, expected: .unsupportedAlgorithm),
                Case(name: "header without x5c", kind: kind,
                     jws: valid.replacingHeader(.object(header.filter { $0.key != "x5c" })).description, expected: .missingCertificateChain),
                Case(name: "two certificates", kind: kind, jws: try signer.sign(try payload(), certificates: Array(chain.x5c.prefix(2))).description,
                     expected: .invalidChainLength),
                Case(name: "four certificates", kind: kind, jws: try signer.sign(try payload(), certificates: chain.x5c + [chain.x5c[2]]).description,
                     expected: .invalidChainLength),
                Case(name: "a leaf that is not a certificate", kind: kind,
                     jws: try signer.sign(try payload(), certificates: ["AAAA"] + chain.x5c.dropFirst()).description, expected: .invalidCertificate),
                Case(name: "a sandbox payload on the production route", kind: kind, jws: valid.description, environment: .production,
                     appAppleID: Self.appAppleID, expected: .wrongEnvironment),
                Case(name: "a production payload on the sandbox route", kind: kind, jws: try signer.sign(try payload(environment: .production)),
                     expected: .wrongEnvironment),
                Case(name: "not a JWS", kind: kind, jws: "not a JWS", expected: .malformedJWS),
                Case(name: "a payload that is a JSON array", kind: kind, jws: valid.replacingPayload([1, 2]).description, expected: .malformedJWS),
            ]
            if kind != .renewal {
                // Renewal info carries no bundle id: Apple's library checks none there.
                cases.append(Case(name: "another app's bundle id", kind: kind, jws: valid.description, bundleID: "com.example.other",
                                  expected: .wrongBundleID))
            }
        }
        // Xcode's payloads are not signed by the App Store: Apple's library skips the chain and the
        // signature for that environment (even another root's), and checks the rest.
        let otherSigner = SignedDataSigner(chain: try chain.variant(.otherRoot))
        cases.append(Case(name: "an Xcode transaction under another root, on the Xcode route", kind: .transaction,
                          jws: try otherSigner.sign(Self.transactions(environment: .xcode)[0].json), environment: .xcode))
        cases.append(Case(name: "a sandbox transaction on the Xcode route", kind: .transaction,
                          jws: try signer.sign(Self.transactions(environment: .sandbox)[0].json), environment: .xcode,
                          expected: .wrongEnvironment))
        cases.append(Case(name: "another app's Apple id in production", kind: .notification,
                          jws: try signer.sign(try Self.notification(environment: .production, signer: signer).json), environment: .production,
                          appAppleID: 987_654_321, expected: .wrongAppAppleID))
        self.cases = cases
    }

    // MARK: Payloads

    static let token = UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138")

    /// One transaction of each product type.
    static func transactions(environment: AppStoreEnvironment, signedDate: Date = signedDate) -> [TransactionPayload] {
        let bought = signedDate.addingTimeInterval(-3_600)
        return [
            TransactionPayload(transactionID: "3000000001", bundleID: bundleID, productID: "com.example.verify.coins", purchaseDate: bought,
                               quantity: 3, type: .consumable, appAccountToken: token, signedDate: signedDate, environment: environment,
                               price: 990, currency: "USD"),
            TransactionPayload(transactionID: "3000000002", bundleID: bundleID, productID: "com.example.verify.pro", purchaseDate: bought,
                               type: .nonConsumable, ownership: .familyShared, signedDate: signedDate, revocationReason: .appIssue,
                               revocationDate: signedDate.addingTimeInterval(-60), environment: environment),
            TransactionPayload(transactionID: "3000000004", originalTransactionID: "3000000003", webOrderLineItemID: "13000000004",
                               bundleID: bundleID, productID: "com.example.verify.plus.monthly", subscriptionGroupIdentifier: "premium",
                               purchaseDate: bought, originalPurchaseDate: bought.addingTimeInterval(-2_678_400),
                               expiresDate: bought.addingTimeInterval(2_678_400), type: .autoRenewableSubscription, appAccountToken: token,
                               signedDate: signedDate, environment: environment, reason: .renewal, price: 4_990, currency: "EUR"),
            TransactionPayload(transactionID: "3000000005", bundleID: bundleID, productID: "com.example.verify.pass.spring",
                               subscriptionGroupIdentifier: "passes", purchaseDate: bought, expiresDate: bought.addingTimeInterval(7_776_000),
                               type: .nonRenewingSubscription, signedDate: signedDate, environment: environment),
        ]
    }

    static func renewal(environment: AppStoreEnvironment, signedDate: Date = signedDate) -> RenewalInfoPayload {
        RenewalInfoPayload(originalTransactionID: "3000000003", productID: "com.example.verify.plus.monthly", autoRenews: false,
                           expirationIntent: .customerCancelled, signedDate: signedDate, environment: environment,
                           renewalDate: signedDate.addingTimeInterval(2_674_800), appAccountToken: token, renewalPrice: 4_990, currency: "EUR")
    }

    /// A subscription's notification carrying its signed transaction and renewal info.
    static func notification(environment: AppStoreEnvironment, signedDate: Date = signedDate, signer: SignedDataSigner) throws -> NotificationPayload {
        NotificationPayload(
            notificationType: .didChangeRenewalStatus, subtype: .autoRenewDisabled,
            notificationUUID: UUID(uuidString: "002E14D5-51F5-4503-B5A8-C3A1AF68EB20") ?? UUID(), appAppleID: Int(appAppleID),
            bundleID: bundleID, bundleVersion: "42", environment: environment,
            signedTransactionInfo: try signer.sign(transactions(environment: environment)[2].json),
            signedRenewalInfo: try signer.sign(renewal(environment: environment).json), status: .active, signedDate: signedDate)
    }
}
