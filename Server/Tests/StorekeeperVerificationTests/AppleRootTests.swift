import Crypto
import Foundation
import Testing
import X509
@testable import StorekeeperVerification
import SwiftASN1

/// The bundled default root is Apple Root CA - G3, byte for byte as Apple publishes it.
@Suite struct AppleRootTests {
    @Test func theBundledRootHasAppleRootCAG3sFingerprint() throws {
        let der = try SignedDataVerifier.appleRootCAG3()
        let fingerprint = SHA256.hash(data: der).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
        #expect(fingerprint == "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
        #expect(fingerprint == SignedDataVerifier.appleRootCAG3Fingerprint)
        let certificate = try Certificate(derEncoded: der)
        #expect(certificate.subject.description.contains("CN=Apple Root CA - G3"), "\(certificate.subject)")
    }

    @Test func theDefaultVerifierTrustsAppleNotTheTestChain() async throws {
        let corpus = try OracleAgreementTests.corpus.get()
        let verifier = try SignedDataVerifier(bundleID: VerificationCorpus.bundleID, environment: .sandbox)
        let valid = try #require(corpus.cases.first { $0.kind == .transaction && $0.expected == nil && $0.environment == .sandbox })
        await #expect(throws: VerificationFailure.self) { try await verifier.verifyTransaction(valid.jws) }
        do {
            _ = try await verifier.verifyTransaction(valid.jws)
        } catch {
            #expect(error.reason == .untrustedChain, "\(error)")
        }
    }

    @Test func aVerifierIsNotMadeWithoutWhatItNeeds() throws {
        #expect(throws: SignedDataVerifier.ConfigurationError.self) {
            try SignedDataVerifier(bundleID: "com.example.verify", environment: .production)
        }
        #expect(throws: SignedDataVerifier.ConfigurationError.self) {
            try SignedDataVerifier(trustedRoots: [], bundleID: "com.example.verify", environment: .sandbox)
        }
        #expect(throws: SignedDataVerifier.ConfigurationError.self) {
            try SignedDataVerifier(trustedRoots: [[0x30, 0x03, 0x02, 0x01, 0x01]], bundleID: "com.example.verify", environment: .sandbox)
        }
    }
}
