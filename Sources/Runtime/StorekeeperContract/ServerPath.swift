import Foundation

/// The server contract's paths (docs/server-contract.md), and how it puts
/// text in a path: transaction ids, spend keys and the segments of a
/// content path.
public enum ServerPath {
    /// `GET`: who the credential authenticates.
    public static let account = "/v1/account"
    /// `POST`: a signed transaction to verify and keep.
    public static let transactions = "/v1/transactions"
    /// `POST`: a transaction proved by the app's receipt.
    package static let receiptVerification = "/v1/receipts/verify"
    /// `GET`: the user's records.
    public static let records = "/v1/records"
    /// `GET`: what the user's purchases entitle them to.
    public static let entitlements = "/v1/entitlements"

    /// `PUT`: the record of `transactionID`.
    public static func record(_ transactionID: String) -> String { "/v1/records/\(segment(transactionID))" }

    /// `PUT`: the spend made once under `key`.
    public static func spend(_ key: String) -> String { "/v1/spends/\(segment(key))" }

    /// `GET`: the content file whose path has these segments, each encoded.
    public static func content(_ segments: [String]) -> String {
        "/v1/content/" + segments.map(segment).joined(separator: "/")
    }

    /// `text` as one path segment: every byte of its UTF-8 other than RFC
    /// 3986's unreserved characters (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`,
    /// `_`, `~`) as `%XX` in uppercase hex, so that it stays one segment
    /// whatever it holds (`/`, `?`, `&`, spaces). A segment of only dots is
    /// encoded entirely (`..` is `%2E%2E`), since `.` and `..` segments are
    /// removed from paths.
    public static func segment(_ text: String) -> String {
        let dotsOnly = !text.isEmpty && text.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ".") where !dotsOnly:
                output.append(".")
            default:
                output += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return output
    }

    /// A segment as ``segment(_:)`` (or any RFC 3986 writer) encodes it,
    /// decoded: `%XX` escapes, and raw bytes only where a path may hold them
    /// unescaped (not space, `/`, `?`, `#`, `%`, non-ASCII). `nil` when an
    /// escape is malformed, a byte may not appear raw, or the result is not
    /// UTF-8 (never a repaired string that would name another id).
    public static func decodedSegment(_ text: Substring) -> String? {
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
        // Foundation's, not String(validating:), which needs iOS 18: nil when not UTF-8.
        return String(bytes: bytes, encoding: .utf8)
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
