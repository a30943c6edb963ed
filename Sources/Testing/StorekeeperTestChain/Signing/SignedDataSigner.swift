import Crypto
import Foundation
public import StorekeeperJSON

/// Signs payloads as the App Store signs its data (StoreKit 2 transactions,
/// renewal info, App Store Server Notifications V2): a JWS in compact
/// serialization whose header is `{"alg":"ES256","x5c":[leaf, intermediate, root]}`
/// and whose signature is the chain's leaf key's ECDSA P-256 with SHA-256, in
/// JWS form (r and s, 32 bytes each; RFC 7518 section 3.4), not DER.
///
/// Header and payload are written by `JSONWriter`, compactly and in the
/// payload's member order, so the same payload gives the same first two parts.
public struct SignedDataSigner: Sendable {
    /// The chain whose leaf signs.
    public let chain: TestCertificateChain

    /// A signer with `chain`'s leaf key.
    public init(chain: TestCertificateChain) {
        self.chain = chain
    }

    /// `payload` signed, with the chain's three certificates in `x5c`.
    public func sign(_ payload: JSONValue) throws(TestChainError) -> String {
        try sign(payload, certificates: chain.x5c).description
    }

    /// `payload` signed, with `certificates` (base64 DER, leaf first) in the
    /// header's `x5c`: fewer, more or other certificates than the chain's
    /// make the payloads a verifier must refuse for their chain alone.
    public func sign(_ payload: JSONValue, certificates: [String]) throws(TestChainError) -> CompactJWS {
        let header: JSONValue = ["alg": "ES256", "x5c": .array(certificates.map { .string($0) })]
        let key = chain.leafKey
        return try CompactJWS(header: header, payload: payload) { input throws(TestChainError) in
            do {
                return Array(try key.signature(for: Data(input.utf8)).rawRepresentation)
            } catch {
                throw TestChainError("the leaf key could not sign: \(error)")
            }
        }
    }
}
