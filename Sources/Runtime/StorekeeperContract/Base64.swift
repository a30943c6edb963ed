/// Strict Base64 over bytes (RFC 4648), both alphabets, without Foundation's
/// `Data` round trip: the one home for it in Storekeeper. Receipts travel in
/// the standard alphabet with padding; JWS and JWT segments in ``Base64URL``'s.
public enum Base64 {
    /// `bytes` in the standard alphabet with padding (RFC 4648 section 4).
    @inlinable public static func encode(_ bytes: some Collection<UInt8>) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    /// The bytes of standard, padded Base64 `text`; nil when it is not that
    /// (a byte outside the alphabet, a length no encoding has, nonzero
    /// leftover bits).
    @inlinable public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(text.utf8, table: standardTable, padded: true)
    }

    /// The bytes of standard, padded Base64 `text`, given as bytes.
    @inlinable public static func decode(bytes text: some Collection<UInt8>) -> [UInt8]? {
        decode(text, table: standardTable, padded: true)
    }

    @usableFromInline static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    @usableFromInline static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    @usableFromInline static let standardTable = table(standardAlphabet)
    @usableFromInline static let urlTable = table(urlAlphabet)

    /// The value of each ASCII byte in an alphabet, 0xFF for bytes outside it.
    private static func table(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }

    @inlinable static func encode(_ bytes: some Collection<UInt8>, alphabet: [UInt8], padded: Bool) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
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
        if padded {
            while output.count % 4 != 0 { output.append(UInt8(ascii: "=")) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    @inlinable static func decode(_ text: some Collection<UInt8>, table: [UInt8], padded: Bool) -> [UInt8]? {
        var count = text.count
        if padded {
            guard count % 4 == 0 else { return nil }
            var padding = 0
            var index = text.endIndex
            while padding < 2, index > text.startIndex {
                let previous = text.index(index, offsetBy: -1)
                guard text[previous] == UInt8(ascii: "=") else { break }
                padding += 1
                index = previous
            }
            count -= padding
        }
        guard count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var seen = 0
        for byte in text {
            guard seen < count else { break }
            seen += 1
            let value = table[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero: one text per byte string, as strict decoders require.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }
}
