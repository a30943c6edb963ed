import Foundation

/// A JWS in compact serialization (RFC 7515: three base64url segments joined
/// by dots) read without verifying anything: for choosing which verifier to
/// run, or for a simulated server that trusts its test store. Never a
/// verdict: only a signature checked to Apple's root is one.
public enum JWSPayload {
    /// The payload segment's bytes; nil when `text` is not three segments, its
    /// signature is empty, or the payload is not base64url.
    public static func peek(_ text: some StringProtocol) -> [UInt8]? {
        let parts = text.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty else { return nil }
        return Base64URL.decode(parts[1])
    }

    /// The payload decoded as `Value`; nil when it is not a JWS or not such a value.
    public static func peek<Value: Decodable>(_ type: Value.Type, in text: some StringProtocol) -> Value? {
        guard let bytes = peek(text) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(bytes))
    }
}
