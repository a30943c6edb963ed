/// Strict base64 decoding over bytes, without Foundation's `Data` round trip.
enum Base64 {
    /// The value of each ASCII byte in an alphabet, 0xFF for bytes outside it.
    private static func table(_ alphabet: String) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.utf8.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }

    private static let urlTable = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    private static let standardTable = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// base64url without padding (RFC 7515 section 2), as JWS segments are; nil if
    /// any byte is outside the alphabet or the length cannot be base64.
    static func decodeURL<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        decode(text, table: urlTable, padded: false)
    }

    /// Standard base64 with its padding (RFC 4648 section 4), as `x5c` entries are.
    static func decodeStandard<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        decode(text, table: standardTable, padded: true)
    }

    private static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, table: [UInt8], padded: Bool) -> [UInt8]? {
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
