/// How the server contract puts text in a path (docs/server-contract.md):
/// transaction ids, spend keys and the segments of a content path.
public enum ServerPath {
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
}
