import Crypto
import Foundation
import StorekeeperContract
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Verifies a JWS's `x5c` chain as Apple's App Store Server Library does:
/// exactly three certificates; the leaf and the intermediate verified with
/// swift-certificates' `Verifier` to one of the trusted roots (the chain's
/// third certificate is not used, as the library does not use it), with
/// RFC 5280's checks at a fixed time (the payload's `signedDate`) and
/// ``AppleMarkerPolicy``; the leaf's key returned for the signature.
///
/// Chains verified are cached (``VerifiedChainCache``), so repeated payloads
/// from one chain cost a dictionary lookup.
final class ChainVerifier: Sendable {
    /// The trusted roots, parsed once.
    let roots: [Certificate]
    let cache: VerifiedChainCache

    /// - Throws: A ``SignedDataVerifier/ConfigurationError`` when a root is not a DER certificate.
    init(trustedRoots: [[UInt8]], cacheCapacity: Int = 32) throws(SignedDataVerifier.ConfigurationError) {
        guard !trustedRoots.isEmpty else {
            throw SignedDataVerifier.ConfigurationError("no trusted roots: give at least one root certificate (DER), Apple Root CA - G3 for the App Store")
        }
        var roots: [Certificate] = []
        for (index, der) in trustedRoots.enumerated() {
            do {
                roots.append(try Certificate(derEncoded: der))
            } catch {
                throw SignedDataVerifier.ConfigurationError("trusted root \(index) (\(der.count) bytes) is not a DER X.509 certificate: \(error)")
            }
        }
        self.roots = roots
        cache = VerifiedChainCache(capacity: cacheCapacity)
    }

    /// The leaf's key, if `x5c` verifies to a trusted root at `time`.
    func signingKey(x5c: [String], at time: Date) async throws(VerificationFailure) -> P256.Signing.PublicKey {
        guard x5c.count == 3 else {
            throw VerificationFailure(.invalidChainLength, "the x5c chain has \(x5c.count) certificates; the App Store's has 3 (leaf, intermediate, root)")
        }
        let key = VerifiedChainCache.Key(leaf: x5c[0], intermediate: x5c[1])
        if let entry = cache.entry(for: key, at: time) {
            return entry.key
        }
        let leaf = try Self.certificate(x5c[0], position: "leaf (x5c[0])")
        let intermediate = try Self.certificate(x5c[1], position: "intermediate (x5c[1])")

        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            AppleMarkerPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        let chain: ValidatedCertificateChain
        switch result {
        case .validCertificate(let validated):
            chain = validated
        case .couldNotValidate(let failures):
            throw Self.explain(failures, leaf: leaf, intermediate: intermediate, time: time)
        }
        guard let signingKey = P256.Signing.PublicKey(chain.leaf.publicKey) else {
            throw VerificationFailure(.unsupportedKey, "the leaf certificate '\(leaf.subject)' has a key that is not P-256, so it cannot sign ES256")
        }
        let validFrom = chain.map(\.notValidBefore).max() ?? time
        let validUntil = chain.map(\.notValidAfter).min() ?? time
        cache.insert(.init(key: signingKey, validFrom: validFrom, validUntil: validUntil), for: key)
        return signingKey
    }

    private static func certificate(_ base64: String, position: String) throws(VerificationFailure) -> Certificate {
        guard let der = Base64.decode(bytes: base64.utf8) else {
            throw VerificationFailure(.invalidCertificate, "the \(position) certificate is not base64 (RFC 4648, with padding)")
        }
        do {
            return try Certificate(derEncoded: der)
        } catch {
            throw VerificationFailure(.invalidCertificate, "the \(position) certificate (\(der.count) bytes) is not a DER X.509 certificate: \(error)")
        }
    }

    /// Why no chain verified, named as precisely as the certificates allow.
    private static func explain(
        _ failures: [CertificateValidationResult.PolicyFailure], leaf: Certificate, intermediate: Certificate, time: Date
    ) -> VerificationFailure {
        let at = Self.format(time)
        // A certificate of a chain built, or the two sent, not valid at the signedDate.
        let candidates = (failures.first.map { Array($0.chain) } ?? [leaf, intermediate])
        for (index, certificate) in candidates.enumerated() {
            let role = index == 0 ? "leaf" : index == 1 ? "intermediate" : "root"
            if certificate.notValidAfter < time {
                return VerificationFailure(
                    .untrustedChain,
                    "the \(role) certificate '\(certificate.subject)' expired at \(format(certificate.notValidAfter)), before the payload's signedDate \(at)")
            }
            if certificate.notValidBefore > time {
                return VerificationFailure(
                    .untrustedChain,
                    "the \(role) certificate '\(certificate.subject)' is valid only from \(format(certificate.notValidBefore)), after the payload's signedDate \(at)")
            }
        }
        if let marker = failures.lazy.map(\.policyFailureReason.description).first(where: { $0.hasPrefix(AppleMarkerPolicy.failurePrefix) }) {
            return VerificationFailure(.missingAppleMarker, String(marker.dropFirst(AppleMarkerPolicy.failurePrefix.count)))
        }
        if let failure = failures.first {
            return VerificationFailure(.untrustedChain, "the chain to '\(failure.chain.last?.subject.description ?? "?")' fails RFC 5280 at \(at): \(failure.policyFailureReason)")
        }
        if !intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) {
            return VerificationFailure(
                .untrustedChain, "the leaf certificate '\(leaf.subject)' is not signed by the intermediate certificate '\(intermediate.subject)'")
        }
        return VerificationFailure(
            .untrustedChain,
            "no trusted root (of the verifier's roots) signed the intermediate certificate '\(intermediate.subject)', issued by '\(intermediate.issuer)'")
    }

    /// An instant as RFC 3339 in UTC, for messages.
    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
