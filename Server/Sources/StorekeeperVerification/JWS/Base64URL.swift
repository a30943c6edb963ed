/// Base64url without padding (RFC 7515 section 2), as JWS and JWT segments
/// are spelled: the one home for it on the server, table-driven over bytes
/// (no `Data` round trip, no string replacing), since every request pays it.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url, unpadded.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
        }
        if bits > 0 { output.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3F)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of unpadded base64url `text`; nil when it is not that (padding, `+`, `/`, a
    /// length no encoding has, or nonzero leftover bits).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        Base64.decodeURL(text.utf8)
    }
}
