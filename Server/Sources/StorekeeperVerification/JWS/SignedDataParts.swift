import StorekeeperContract
import StorekeeperJSON

/// A JWS in compact serialization taken apart, before anything is verified:
/// the header's and payload's JSON objects, the signature's bytes, and the
/// signing input (the first two segments as sent).
struct SignedDataParts {
    /// The header's members.
    var header: [String: JSONValue]
    /// The payload's members.
    var payload: [String: JSONValue]
    /// `BASE64URL(header) "." BASE64URL(payload)`, the bytes the signature covers.
    var signingInput: ArraySlice<UInt8>
    /// The signature's bytes (for ES256, r and s of 32 bytes each).
    var signature: [UInt8]

    /// Parsers with the verifier's limits: shallow objects, at most the JWS's size.
    private static let parser = JSONParser(maxDepth: 16, maxSize: SignedDataVerifier.maximumSize)

    /// Splits and decodes `jws`; `what` names the kind of signed data in messages. Headers seen
    /// before are taken from `headers` rather than decoded again.
    init(_ jws: String, what: String, headers: ParsedHeaderCache) throws(VerificationFailure) {
        let bytes = Array(jws.utf8)
        guard bytes.count <= SignedDataVerifier.maximumSize else {
            throw VerificationFailure(.malformedJWS, "the signed \(what) is \(bytes.count) bytes, more than the \(SignedDataVerifier.maximumSize) accepted")
        }
        var dots: [Int] = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 2 { break }
        }
        guard dots.count == 2 else {
            let segments = switch dots.count { case 0: "1 segment"; case 1: "2 segments"; default: "more than 3 segments" }
            throw VerificationFailure(
                .malformedJWS, "the signed \(what) has \(segments) separated by '.'; a JWS in compact form has 3 (header.payload.signature)")
        }
        let headerText = bytes[..<dots[0]]
        let payloadText = bytes[(dots[0] + 1)..<dots[1]]
        let signatureText = bytes[(dots[1] + 1)...]
        header = try headers.header(for: headerText) { text throws(VerificationFailure) in
            try Self.object(text, segment: "header", what: what)
        }
        payload = try Self.object(payloadText, segment: "payload", what: what)
        guard let signature = Base64URL.decode(bytes: signatureText) else {
            throw VerificationFailure(.malformedJWS, "the signed \(what)'s signature segment is not base64url (RFC 7515: A-Z a-z 0-9 - _, no padding)")
        }
        self.signature = signature
        signingInput = bytes[..<dots[1]]
    }

    private static func object(_ text: ArraySlice<UInt8>, segment: String, what: String) throws(VerificationFailure) -> [String: JSONValue] {
        guard let json = Base64URL.decode(bytes: text) else {
            throw VerificationFailure(.malformedJWS, "the signed \(what)'s \(segment) segment is not base64url (RFC 7515: A-Z a-z 0-9 - _, no padding)")
        }
        let value: JSONValue
        do {
            value = try parser.parse(json)
        } catch {
            throw VerificationFailure(.malformedJWS, "the signed \(what)'s \(segment) is not JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw VerificationFailure(.malformedJWS, "the signed \(what)'s \(segment) is JSON but not an object")
        }
        // JSONParser refuses duplicate keys, so every key is unique here.
        var dictionary = [String: JSONValue](minimumCapacity: members.count)
        for member in members { dictionary[member.key] = member.value }
        return dictionary
    }
}
