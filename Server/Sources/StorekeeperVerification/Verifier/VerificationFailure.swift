/// Why a ``SignedDataVerifier`` refused signed data: a ``Reason``, the status
/// Apple's App Store Server Library reports for the same input, and a message
/// that names exactly what failed (which certificate, which OID, which time,
/// which value was expected and which was found).
public struct VerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, finer than Apple's ``AppleVerificationStatus``.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Not a JWS the verifier can read: larger than ``SignedDataVerifier/maximumSize``,
        /// not three base64url segments, a header or payload that is not a JSON object.
        case malformedJWS
        /// The header has no `x5c` certificate chain, or an empty one.
        case missingCertificateChain
        /// The header's `alg` is not `ES256` (`none` included).
        case unsupportedAlgorithm
        /// The `x5c` chain does not have exactly three certificates.
        case invalidChainLength
        /// The leaf or the intermediate is not base64 of a DER X.509 certificate.
        case invalidCertificate
        /// The chain does not verify to a trusted root at the payload's `signedDate`
        /// (another root, a broken signature, a certificate not valid at that time, RFC 5280).
        case untrustedChain
        /// The leaf lacks Apple's OID 1.2.840.113635.100.6.11.1, or the intermediate 1.2.840.113635.100.6.2.1.
        case missingAppleMarker
        /// The leaf's key is not a P-256 key, so it cannot have made an ES256 signature.
        case unsupportedKey
        /// The signature does not verify with the leaf's key over the header and payload as sent.
        case invalidSignature
        /// A payload member has the wrong JSON type (a string where a number belongs, say).
        case malformedPayload
        /// The payload's bundle id is not the verifier's.
        case wrongBundleID
        /// In production, the notification's app Apple id is not the verifier's.
        case wrongAppAppleID
        /// The payload's environment is not the verifier's (a sandbox payload on the production route).
        case wrongEnvironment

        /// The status Apple's `SignedDataVerifier` reports for this reason.
        public var appleStatus: AppleVerificationStatus {
            switch self {
            case .invalidChainLength: .invalidChainLength
            case .invalidCertificate: .invalidCertificate
            case .wrongBundleID, .wrongAppAppleID: .invalidAppIdentifier
            case .wrongEnvironment: .invalidEnvironment
            case .malformedJWS, .missingCertificateChain, .unsupportedAlgorithm, .untrustedChain, .missingAppleMarker,
                 .unsupportedKey, .invalidSignature, .malformedPayload:
                .verificationFailure
            }
        }
    }

    /// What failed.
    public var reason: Reason
    /// What failed, in words: which certificate, OID, time or value, and what was expected.
    public var message: String

    /// Creates a failure.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The status Apple's App Store Server Library reports for the same input.
    public var status: AppleVerificationStatus { reason.appleStatus }

    /// Whether trying again later may succeed. Apple's library says so only for
    /// failed OCSP requests; this verifier makes no online checks, so every
    /// refusal it makes is final for the input given.
    public var isRetryable: Bool { status == .retryableVerificationFailure }

    /// The reason and the message.
    public var description: String { "\(reason.rawValue): \(message)" }
}

/// The statuses of Apple's App Store Server Library (`VerificationStatus`),
/// named as the library names them, for comparing decisions with it.
public enum AppleVerificationStatus: String, Sendable, Hashable, CaseIterable {
    /// `VERIFICATION_FAILURE`: the signature, the chain's trust, the OIDs, the algorithm or the format.
    case verificationFailure = "VERIFICATION_FAILURE"
    /// `INVALID_APP_IDENTIFIER`: another bundle id, or another app Apple id in production.
    case invalidAppIdentifier = "INVALID_APP_IDENTIFIER"
    /// `INVALID_CERTIFICATE`: a certificate that cannot be read, or no trusted roots.
    case invalidCertificate = "INVALID_CERTIFICATE"
    /// `INVALID_CHAIN_LENGTH`: an `x5c` chain of other than three certificates.
    case invalidChainLength = "INVALID_CHAIN_LENGTH"
    /// `INVALID_CHAIN`: reserved by the library.
    case invalidChain = "INVALID_CHAIN"
    /// `INVALID_ENVIRONMENT`: a payload of another environment.
    case invalidEnvironment = "INVALID_ENVIRONMENT"
    /// `RETRYABLE_VERIFICATION_FAILURE`: an online (OCSP) check could not be made.
    case retryableVerificationFailure = "RETRYABLE_VERIFICATION_FAILURE"
}
