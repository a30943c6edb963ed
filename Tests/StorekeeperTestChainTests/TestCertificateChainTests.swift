import Foundation
import StorekeeperJSON
import StorekeeperTestChain
import SwiftASN1
import Testing
import X509

/// The chain's shape as the issue asks for it, read back with
/// swift-certificates; whether verifiers accept it is the oracle's to say
/// (SignedDataOracleTests).
@Suite struct TestCertificateChainTests {
    @Test func theChainHasTheExtensionsStrictVerifiersNeedAndApplesMarkers() throws {
        let chain = try TestCertificateChain()
        let root = try Certificate(derEncoded: chain.rootDER)
        let intermediate = try Certificate(derEncoded: chain.intermediateDER)
        let leaf = try Certificate(derEncoded: chain.leafDER)

        #expect(try root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(try intermediate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        for certificate in [root, intermediate, leaf] {
            #expect(certificate.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
            #expect(try certificate.extensions.subjectKeyIdentifier != nil)
        }
        #expect(try root.extensions.keyUsage?.keyCertSign == true)
        #expect(try intermediate.extensions.keyUsage?.keyCertSign == true)
        #expect(try leaf.extensions.keyUsage == KeyUsage(digitalSignature: true))
        // Each authority key identifier names its issuer's subject key identifier.
        #expect(try intermediate.extensions.authorityKeyIdentifier?.keyIdentifier == root.extensions.subjectKeyIdentifier?.keyIdentifier)
        #expect(try leaf.extensions.authorityKeyIdentifier?.keyIdentifier == intermediate.extensions.subjectKeyIdentifier?.keyIdentifier)

        #expect(leaf.extensions[oid: TestCertificateChain.leafMarkerOID] != nil)
        #expect(intermediate.extensions[oid: TestCertificateChain.intermediateMarkerOID] != nil)
        #expect(leaf.issuer == intermediate.subject)
        #expect(intermediate.issuer == root.subject)
        #expect(root.issuer == root.subject)
        #expect(root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
        #expect(intermediate.publicKey.isValidSignature(leaf.signature, for: leaf))
    }

    @Test func validityIsWhatTheOptionsSayNotTheClock() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let end = Date(timeIntervalSince1970: 1_800_000_000)
        let chain = try TestCertificateChain(options: .init(notValidBefore: start, notValidAfter: end))
        for certificate in [chain.root, chain.intermediate, chain.leaf] {
            #expect(certificate.notValidBefore == start)
            #expect(certificate.notValidAfter == end)
        }
        let defaults = try TestCertificateChain()
        #expect(defaults.leaf.notValidBefore == TestCertificateChain.Options.defaultNotValidBefore)
        #expect(defaults.leaf.notValidAfter == TestCertificateChain.Options.defaultNotValidAfter)

        let expired = try defaults.variant(.expiredLeaf)
        #expect(expired.leaf.notValidAfter == defaults.leaf.notValidBefore.addingTimeInterval(86_400))
        #expect(expired.root.notValidAfter == defaults.root.notValidAfter)
    }

    @Test func theVariantsDropAMarkerOrChangeTheRootAndNothingElse() throws {
        let chain = try TestCertificateChain(options: .init(seed: 5))
        let noLeafMarker = try chain.variant(.leafWithoutMarker)
        #expect(noLeafMarker.leaf.extensions[oid: TestCertificateChain.leafMarkerOID] == nil)
        #expect(noLeafMarker.intermediate.extensions[oid: TestCertificateChain.intermediateMarkerOID] != nil)
        #expect(try noLeafMarker.root.publicKey == chain.variant(.valid).root.publicKey, "the same seed must give the same root key")

        let noIntermediateMarker = try chain.variant(.intermediateWithoutMarker)
        #expect(noIntermediateMarker.intermediate.extensions[oid: TestCertificateChain.intermediateMarkerOID] == nil)
        #expect(noIntermediateMarker.leaf.extensions[oid: TestCertificateChain.leafMarkerOID] != nil)

        let other = try chain.variant(.otherRoot)
        #expect(other.root.subject == chain.root.subject, "the impostor root takes the real one's name")
        #expect(other.root.publicKey != chain.root.publicKey)
        #expect(!chain.root.publicKey.isValidSignature(other.intermediate.signature, for: other.intermediate))
        // Without a seed, each chain has keys of its own.
        #expect(try TestCertificateChain().root.publicKey != TestCertificateChain().root.publicKey)
    }

    @Test func aSeedGivesTheSameKeysOnEveryRun() throws {
        let first = try TestCertificateChain(options: .init(seed: 42))
        let again = try TestCertificateChain(options: .init(seed: 42))
        let other = try TestCertificateChain(options: .init(seed: 43))
        #expect(first.root.publicKey == again.root.publicKey)
        #expect(first.leaf.publicKey == again.leaf.publicKey)
        #expect(first.root.publicKey != other.root.publicKey)
        // The three keys of one chain differ.
        #expect(Set([first.root.publicKey, first.intermediate.publicKey, first.leaf.publicKey]).count == 3)
    }

    @Test func badValidityIsRefusedSayingWhatWouldBeRight() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(throws: TestChainError("notValidBefore (\(start)) must be before notValidAfter (\(start))")) {
            try TestCertificateChain(options: .init(notValidBefore: start, notValidAfter: start))
        }
        #expect(throws: TestChainError("leafNotValidAfter (\(start)) must be after notValidBefore (\(start))")) {
            try TestCertificateChain(options: .init(notValidBefore: start, leafNotValidAfter: start))
        }
    }

    @Test func theRootExportsAsDERAndPEMAndTheHeaderCarriesTheChainLeafFirst() throws {
        let chain = try TestCertificateChain()
        let pem = chain.rootPEM
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(pem.hasSuffix("\n-----END CERTIFICATE-----\n"))
        #expect(pem.split(separator: "\n").allSatisfy { $0.count <= 64 })
        #expect(try Certificate(pemEncoded: pem) == chain.root)
        #expect(chain.x5c == [chain.leafDER, chain.intermediateDER, chain.rootDER].map { Data($0).base64EncodedString() })
    }
}
