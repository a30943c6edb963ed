/// Base64url without padding (RFC 7515 section 2), as JWS and JWT segments
/// are spelled; strict, over bytes (``Base64`` holds the mechanism).
public enum Base64URL {
    /// `bytes` in base64url, unpadded.
    @inlinable public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encode(bytes, alphabet: Base64.urlAlphabet, padded: false)
    }

    /// The bytes of unpadded base64url `text`; nil when it is not that
    /// (padding, `+`, `/`, a length no encoding has, or nonzero leftover bits).
    @inlinable public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        Base64.decode(text.utf8, table: Base64.urlTable, padded: false)
    }

    /// The bytes of unpadded base64url `text`, given as bytes.
    @inlinable public static func decode(bytes text: some Collection<UInt8>) -> [UInt8]? {
        Base64.decode(text, table: Base64.urlTable, padded: false)
    }
}
