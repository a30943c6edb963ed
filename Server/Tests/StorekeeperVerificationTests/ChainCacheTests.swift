import Crypto
import Foundation
import StorekeeperJSON
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing
@testable import StorekeeperVerification

/// Chains verified once are reused for later payloads only where the same
/// decision would be reached again: the same leaf and intermediate, a
/// signedDate inside the window in which every certificate is valid.
@Suite struct ChainCacheTests {
    static func setUp() throws -> (SignedDataVerifier, TestCertificateChain, SignedDataSigner) {
        let chain = try OracleAgreementTests.corpus.get().chain
        let verifier = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: VerificationCorpus.bundleID, environment: .sandbox)
        return (verifier, chain, SignedDataSigner(chain: chain))
    }

    @Test func aCachedChainDoesNotCoverASignedDateOutsideItsValidity() async throws {
        let (verifier, _, signer) = try Self.setUp()
        _ = try await verifier.verifyTransaction(try signer.sign(VerificationCorpus.transactions(environment: .sandbox)[0].json))
        #expect(verifier.chains.cache.count == 1)
        for date in [VerificationCorpus.afterTheChain, VerificationCorpus.beforeTheChain] {
            let late = try signer.sign(VerificationCorpus.transactions(environment: .sandbox, signedDate: date)[0].json)
            await #expect(throws: VerificationFailure.self) { try await verifier.verifyTransaction(late) }
            do {
                _ = try await verifier.verifyTransaction(late)
            } catch {
                #expect(error.reason == .untrustedChain)
                #expect(error.message.contains(date.formatted(.iso8601)), "\(error)")
            }
        }
    }

    @Test func aCachedChainStillHasEveryPayloadsSignatureChecked() async throws {
        let (verifier, chain, signer) = try Self.setUp()
        let payload = VerificationCorpus.transactions(environment: .sandbox)[1]
        let valid = try signer.sign(payload.json, certificates: chain.x5c)
        _ = try await verifier.verifyTransaction(valid.description)
        var altered = payload
        altered.productID = "com.example.verify.everything"
        do {
            _ = try await verifier.verifyTransaction(valid.replacingPayload(altered.json).description)
            Issue.record("a payload altered under the signature of a cached chain was accepted")
        } catch {
            #expect(error.reason == .invalidSignature, "\(error)")
        }
        #expect(verifier.chains.cache.count == 1)
    }

    @Test func theCacheIsKeyedByTheIntermediateToo() async throws {
        let (verifier, chain, signer) = try Self.setUp()
        let payload = VerificationCorpus.transactions(environment: .sandbox)[0].json
        _ = try await verifier.verifyTransaction(try signer.sign(payload))
        // The same leaf under an intermediate without Apple's OID (same keys, so the leaf's signature still verifies).
        let unmarked = try chain.variant(.intermediateWithoutMarker)
        let x5c = [chain.x5c[0], unmarked.x5c[1], chain.x5c[2]]
        let underAnother = try signer.sign(payload, certificates: x5c).description
        do {
            _ = try await verifier.verifyTransaction(underAnother)
            Issue.record("a cached leaf under another intermediate was accepted")
        } catch {
            #expect(error.reason == .missingAppleMarker, "\(error)")
            #expect(error.message.contains("1.2.840.113635.100.6.2.1"), "\(error)")
        }
    }

    @Test func theCacheIsBounded() {
        let cache = VerifiedChainCache(capacity: 2)
        let entry = VerifiedChainCache.Entry(key: P256.Signing.PrivateKey().publicKey, validFrom: .distantPast, validUntil: .distantFuture)
        for index in 0..<3 {
            cache.insert(entry, for: .init(leaf: "leaf \(index)", intermediate: "intermediate"))
        }
        #expect(cache.count == 2)
        #expect(cache.entry(for: .init(leaf: "leaf 0", intermediate: "intermediate"), at: Date()) == nil)
        #expect(cache.entry(for: .init(leaf: "leaf 2", intermediate: "intermediate"), at: Date()) != nil)
        #expect(cache.entry(for: .init(leaf: "leaf 2", intermediate: "other"), at: Date()) == nil)
    }

    @Test func headersAreDecodedOncePerSegmentAndBounded() throws {
        let cache = ParsedHeaderCache(capacity: 2)
        var decoded: [String] = []
        func header(_ text: String) throws -> [String: JSONValue] {
            try cache.header(for: Array(text.utf8)[...]) { segment throws(VerificationFailure) in
                decoded.append(String(decoding: segment, as: UTF8.self))
                return ["alg": .string(String(decoding: segment, as: UTF8.self))]
            }
        }
        #expect(try header("first")["alg"] == "first")
        #expect(try header("first")["alg"] == "first")
        #expect(try header("other")["alg"] == "other")
        #expect(try header("third")["alg"] == "third")
        #expect(try header("fifth")["alg"] == "fifth")
        #expect(decoded == ["first", "other", "third", "fifth"])
        #expect(cache.count == 2)
        // "first" was evicted (the oldest): it is decoded again.
        _ = try header("first")
        #expect(decoded.last == "first" && decoded.count == 5)
    }
}
