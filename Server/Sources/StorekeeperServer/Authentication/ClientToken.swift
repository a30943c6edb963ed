import Crypto
public import Foundation
import StorekeeperContract
import StorekeeperJSON
import StorekeeperVerification

/// The client credential: a JWT (RFC 7519) signed HS256 with the configured
/// ``ClientTokenSecret``, naming the user in `sub` and ending at `exp`.
///
/// Verification refuses any `alg` but `HS256` (`none` included) before it
/// looks at the claims, compares the MAC in constant time, requires `sub`
/// (1 to 256 bytes) and `exp` (seconds since 1970), and honours `nbf` when
/// present. No failure holds the token.
public enum ClientToken {
    /// The longest `sub` accepted, in UTF-8 bytes.
    public static let maximumUserLength = 256

    /// A token for `user`, valid until `expiresAt` (whole seconds, rounded down),
    /// for operators, tests and benchmarks. `user` must be 1 to ``maximumUserLength`` bytes.
    public static func issue(user: String, expiresAt: Date, secret: ClientTokenSecret) throws(AuthenticationFailure) -> String {
        guard !user.isEmpty, user.utf8.count <= maximumUserLength else {
            throw .invalidClaim("sub must be 1 to \(maximumUserLength) bytes, not \(user.utf8.count)")
        }
        let header: JSONValue = ["alg": "HS256", "typ": "JWT"]
        let claims: JSONValue = ["sub": .string(user), "exp": .integer(Int(expiresAt.timeIntervalSince1970.rounded(.down)))]
        let writer = JSONWriter(indentation: nil)
        let signingInput = Base64URL.encode(writer.serialize(header).utf8) + "." + Base64URL.encode(writer.serialize(claims).utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: secret.key)
        return signingInput + "." + Base64URL.encode(Array(mac))
    }

    /// The user `token` names, if it is an HS256 JWT signed with `secret`, not
    /// expired at `now` and valid from `nbf`, and at most `maximumSize` bytes.
    public static func verify(_ token: String, secret: ClientTokenSecret, now: Date, maximumSize: Int) throws(AuthenticationFailure) -> String {
        guard token.utf8.count <= maximumSize else { throw .tooLarge(limit: maximumSize) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("it has \(parts.count) parts, not 3") }
        guard let headerBytes = Base64URL.decode(parts[0]), case .object(let header)? = try? JSONParser(maxDepth: 4).parse(headerBytes) else {
            throw .malformed("the header is not a base64url JSON object")
        }
        // The algorithm is the server's, never the token's choice: only HS256.
        guard header.count(where: { $0.key == "alg" }) == 1, case .string("HS256")? = header.first(where: { $0.key == "alg" })?.value else {
            throw .unsupportedAlgorithm
        }
        guard !header.contains(where: { $0.key == "crit" }) else { throw .malformed("the header has crit extensions this server does not know") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        let signingInput = token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count)
        // Constant time: swift-crypto compares the codes without an early exit.
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Array(signingInput), using: secret.key) else {
            throw .badSignature
        }
        guard let claimBytes = Base64URL.decode(parts[1]), case .object(let claims)? = try? JSONParser(maxDepth: 8).parse(claimBytes) else {
            throw .malformed("the claims are not a base64url JSON object")
        }
        func claim(_ name: String) throws(AuthenticationFailure) -> JSONValue? {
            let found = claims.filter { $0.key == name }
            guard found.count <= 1 else { throw .invalidClaim("\(name) appears \(found.count) times") }
            return found.first?.value
        }
        guard case .integer(let expiry)? = try claim("exp") else { throw .invalidClaim("exp is missing or not an integer number of seconds") }
        let seconds = now.timeIntervalSince1970
        guard Double(expiry) > seconds else { throw .expired }
        switch try claim("nbf") {
        case nil: break
        case .integer(let notBefore)?: guard Double(notBefore) <= seconds else { throw .notYetValid }
        default: throw .invalidClaim("nbf is not an integer number of seconds")
        }
        guard case .string(let user)? = try claim("sub") else { throw .invalidClaim("sub is missing or not a string") }
        guard !user.isEmpty, user.utf8.count <= maximumUserLength else {
            throw .invalidClaim("sub must be 1 to \(maximumUserLength) bytes, not \(user.utf8.count)")
        }
        return user
    }
}
