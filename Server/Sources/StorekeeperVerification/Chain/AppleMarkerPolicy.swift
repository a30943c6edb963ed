import SwiftASN1
import X509

/// The part of Apple's trust rule that RFC 5280 does not cover: a chain of
/// exactly leaf, intermediate and root, the leaf carrying Apple's OID
/// 1.2.840.113635.100.6.11.1 (Mac App Store and App Store receipt signing)
/// and the intermediate 1.2.840.113635.100.6.2.1 (Apple Worldwide Developer
/// Relations CA), as Apple's App Store Server Libraries require.
struct AppleMarkerPolicy: VerifierPolicy {
    static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// What starts every failure this policy reports, to tell them from RFC 5280's.
    static let failurePrefix = "Apple marker: "

    // The markers are checked for presence only; a critical one is left to the
    // verifier's rule for unknown critical extensions, as OpenSSL (Apple's
    // Python library) leaves it.
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "\(Self.failurePrefix)the chain built has \(chain.count) certificates; Apple's has 3 (leaf, intermediate, root)")
        }
        let leaf = chain[0]
        let intermediate = chain[1]
        guard leaf.extensions[oid: Self.leafOID] != nil else {
            return .failsToMeetPolicy(reason: "\(Self.failurePrefix)the leaf certificate '\(leaf.subject)' lacks Apple's OID \(Self.leafOID)")
        }
        guard intermediate.extensions[oid: Self.intermediateOID] != nil else {
            return .failsToMeetPolicy(
                reason: "\(Self.failurePrefix)the intermediate certificate '\(intermediate.subject)' lacks Apple's OID \(Self.intermediateOID)")
        }
        return .meetsPolicy
    }
}
