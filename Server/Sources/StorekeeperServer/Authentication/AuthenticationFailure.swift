/// Why a client token was refused: what the 401 answer's message says. It
/// never holds the token, nor any part of it.
public enum AuthenticationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `Authorization: Bearer` header.
    case missing
    /// Longer than the configured limit.
    case tooLarge(limit: Int)
    /// Not three base64url parts, or a header or claims that are not JSON objects.
    case malformed(String)
    /// The header's `alg` is not `HS256` (`none` included).
    case unsupportedAlgorithm
    /// The MAC does not verify with the configured secret.
    case badSignature
    /// A claim is missing or wrong: names which.
    case invalidClaim(String)
    /// `exp` is past.
    case expired
    /// `nbf` is still to come.
    case notYetValid

    public var description: String {
        switch self {
        case .missing: "no credential: send Authorization: Bearer <token>"
        case .tooLarge(let limit): "the credential is longer than \(limit) bytes"
        case .malformed(let why): "the credential is not a JWT: \(why)"
        case .unsupportedAlgorithm: "the credential's alg is not HS256, the only one this server accepts"
        case .badSignature: "the credential's signature does not verify"
        case .invalidClaim(let why): "the credential's claims are wrong: \(why)"
        case .expired: "the credential expired; sign in again"
        case .notYetValid: "the credential is not valid yet (nbf is in the future)"
        }
    }
}
