/// Text from a catalog made safe to place in Swift source.
enum SwiftText {
    /// A string literal: `"com.example.coins"`, with `"` and `\` escaped and
    /// anything that is not printable ASCII written as `\u{...}`.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case " "..."~": result.unicodeScalars.append(scalar)
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result + "\""
    }

    /// Text for a `///` comment: on one line (line and paragraph breaks and
    /// other control characters become spaces, so the text cannot end the
    /// comment), without bidirectional controls (which could make the code
    /// read differently from how it compiles), and with backticks turned
    /// into quotes so it cannot break a code span around it.
    static func comment(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: result += " "
            case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: continue
            case 0x60: result += "'"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
