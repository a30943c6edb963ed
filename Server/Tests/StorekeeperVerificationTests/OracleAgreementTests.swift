import Foundation
import StorekeeperTestChain
import Testing
@testable import StorekeeperVerification

/// The verifier's decisions beside Apple's App Store Server Library's
/// (Python, online checks off) on the same corpus: valid transactions of
/// each type, renewal info and notifications in both environments, and each
/// altered variant a server must refuse. Case by case, both accept or both
/// refuse with the same `VerificationStatus`, and the verifier gives the
/// reason the case was made for.
@Suite struct OracleAgreementTests {
    static let corpus = Result { try VerificationCorpus() }

    static func decide(_ test: VerificationCorpus.Case, root: [UInt8]) async -> Result<Void, VerificationFailure> {
        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(trustedRoots: [root], bundleID: test.bundleID, environment: test.environment,
                                              appAppleID: test.appAppleID)
        } catch {
            return .failure(VerificationFailure(.malformedJWS, "configuration: \(error)"))
        }
        do {
            switch test.kind {
            case .transaction: _ = try await verifier.verifyTransaction(test.jws)
            case .renewal: _ = try await verifier.verifyRenewalInfo(test.jws)
            case .notification: _ = try await verifier.verifyNotification(test.jws)
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    @Test func everyDecisionAgreesWithApplesLibrary() async throws {
        let corpus = try Self.corpus.get()
        let verdicts = try PythonOracle.verify(corpus.cases.map {
            .init(kind: $0.kind, jws: $0.jws, root: corpus.chain.rootDER, environment: $0.environment.rawValue, bundleID: $0.bundleID,
                  appAppleID: $0.appAppleID)
        })
        #expect(corpus.cases.count >= 60)
        var refusals = 0
        for (test, oracle) in zip(corpus.cases, verdicts) {
            let ours = await Self.decide(test, root: corpus.chain.rootDER)
            switch ours {
            case .success:
                #expect(oracle.status == nil, "\(test): accepted here, \(oracle) by Apple's library")
                #expect(test.expected == nil, "\(test): accepted, but must be refused for \(test.expected.map(\.rawValue) ?? "")")
            case .failure(let failure):
                refusals += 1
                #expect(oracle.status == failure.status.rawValue, "\(test): refused here (\(failure)), \(oracle) by Apple's library")
                #expect(failure.reason == test.expected, "\(test): \(failure)")
                #expect(!failure.isRetryable, "\(test): \(failure)")
            }
        }
        #expect(refusals == corpus.cases.filter { $0.expected != nil }.count)
    }
}
