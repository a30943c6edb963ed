/// One path segment as the contract encodes it (docs/server-contract.md,
/// "Ids in paths"), decoded: `%XX` escapes, and raw only the bytes a path may
/// hold unescaped. Hummingbird matches routes on the raw path, so the routes
/// decode their segments here.
enum PathSegment {
    /// The decoded segment; 400 naming `what` when it is empty, malformed or not UTF-8.
    static func decode(_ raw: Substring, what: String) throws(APIError) -> String {
        guard let decoded = percentDecoded(raw), !decoded.isEmpty else {
            throw .badRequest("the \(what) is not a percent-encoded path segment (docs/server-contract.md, Ids in paths)")
        }
        return decoded
    }

    /// RFC 3986 percent-decoding; `nil` when an escape is malformed, a byte
    /// may not appear raw in a path, or the result is not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                guard allowedRaw.contains(byte) else { return nil }
                bytes.append(byte)
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // String(decoding:) repairs invalid UTF-8 with U+FFFD: refuse rather than read another id.
        return Array(text.utf8) == bytes ? text : nil
    }

    private static let allowedRaw = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
