import Foundation

/// Base64url without padding (RFC 7515 section 2), as JWTs spell their parts.
enum Base64URL {
    /// `bytes` in base64url, unpadded.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of unpadded base64url `text`; nil when it is not that (padding, `+`, `/` included).
    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ alphabet.contains($0) }), text.utf8.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
