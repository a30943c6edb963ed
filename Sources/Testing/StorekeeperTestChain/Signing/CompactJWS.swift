import StorekeeperContract
public import StorekeeperJSON

/// A JWS in compact serialization (RFC 7515 section 7.1): the header, the
/// payload and the signature, each base64url-encoded, joined by dots.
///
/// Reads what ``SignedDataSigner`` or the App Store signs, and makes the
/// altered copies a verifier must refuse: a payload or a header replaced
/// under the old signature, or the signature dropped.
public struct CompactJWS: Sendable, Hashable, CustomStringConvertible {
    /// The header's base64url text, as received.
    public private(set) var encodedHeader: String
    /// The payload's base64url text, as received.
    public private(set) var encodedPayload: String
    /// The signature's base64url text, as received (empty when unsigned).
    public private(set) var encodedSignature: String

    /// Reads `text`.
    ///
    /// - Throws: ``TestChainError`` when it is not three base64url parts
    ///   joined by dots, or its header or payload is not a JSON object.
    public init(parsing text: String) throws(TestChainError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw TestChainError("a JWS in compact serialization has 3 parts separated by dots; this has \(parts.count)")
        }
        encodedHeader = String(parts[0])
        encodedPayload = String(parts[1])
        encodedSignature = String(parts[2])
        _ = try header
        _ = try payload
    }

    /// A JWS of `header` and `payload` (serialized compactly) and a signature of the two.
    init(header: JSONValue, payload: JSONValue, sign: (String) throws(TestChainError) -> [UInt8]) throws(TestChainError) {
        encodedHeader = Self.encode(header)
        encodedPayload = Self.encode(payload)
        encodedSignature = ""
        encodedSignature = Base64URL.encode(try sign(signingInput))
    }

    /// The header, decoded.
    public var header: JSONValue {
        get throws(TestChainError) { try Self.decodeObject(encodedHeader, part: "header") }
    }

    /// The payload, decoded.
    public var payload: JSONValue {
        get throws(TestChainError) { try Self.decodeObject(encodedPayload, part: "payload") }
    }

    /// What the signature covers: the encoded header, a dot, the encoded payload.
    public var signingInput: String { "\(encodedHeader).\(encodedPayload)" }

    /// The compact serialization.
    public var description: String { "\(signingInput).\(encodedSignature)" }

    /// This JWS with `payload` instead of its own, under the old signature.
    public func replacingPayload(_ payload: JSONValue) -> CompactJWS {
        var copy = self
        copy.encodedPayload = Self.encode(payload)
        return copy
    }

    /// This JWS with `header` instead of its own, under the old signature.
    public func replacingHeader(_ header: JSONValue) -> CompactJWS {
        var copy = self
        copy.encodedHeader = Self.encode(header)
        return copy
    }

    /// This JWS as an unsecured one (RFC 7515 appendix A.5): its header's
    /// `alg` is `none` (its other members kept) and the signature is empty.
    public func unsecured() throws(TestChainError) -> CompactJWS {
        guard case .object(var members) = try header else { throw TestChainError("the JWS header is not a JSON object") }
        members.removeAll { $0.key == "alg" }
        members.insert((key: "alg", value: "none"), at: 0)
        var copy = replacingHeader(.object(members))
        copy.encodedSignature = ""
        return copy
    }

    // MARK: Inside

    private static func encode(_ value: JSONValue) -> String {
        Base64URL.encode(Array(JSONWriter(indentation: nil).serialize(value).utf8))
    }

    private static func decodeObject(_ encoded: String, part: String) throws(TestChainError) -> JSONValue {
        guard let bytes = Base64URL.decode(encoded) else {
            throw TestChainError("the JWS \(part) is not base64url without padding")
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw TestChainError("the JWS \(part) is not JSON: \(error)")
        }
        guard case .object = value else { throw TestChainError("the JWS \(part) is not a JSON object") }
        return value
    }
}
