/// Writes ``StoreKitValue``s as Xcode writes StoreKit configuration files, so
/// that a file Xcode wrote and one written here differ only where their
/// contents do.
///
/// The layout is that of Xcode's files (Foundation's pretty-printed JSON
/// with sorted keys): two spaces per level, `"key" : value`, one member or
/// element per line, an empty array or object as an opening bracket, an
/// empty line and the closing bracket at the parent's indentation, keys
/// sorted without regard to case (`_storefront` before `_storeKitErrors`),
/// and a newline at the end. Strings escape `"`, `\` and `/` with a
/// backslash, control characters as `\n`, `\t` and the like or `\u00XX`, and
/// keep everything else (non-ASCII included) as UTF-8.
public struct StoreKitWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The file's text.
    public func write(_ value: StoreKitValue) -> String {
        var output = ""
        append(value, indentation: 0, to: &output)
        output += "\n"
        return output
    }

    /// Whether `key` comes before `other` in Xcode's order: case-insensitive,
    /// runs of digits compared as numbers, and ties broken by the exact text.
    public static func orders(_ key: String, before other: String) -> Bool {
        let lhs = Array(key.unicodeScalars), rhs = Array(other.unicodeScalars)
        var i = 0, j = 0
        while i < lhs.count, j < rhs.count {
            if isDigit(lhs[i]), isDigit(rhs[j]) {
                var a = i, b = j
                while a < lhs.count, isDigit(lhs[a]) { a += 1 }
                while b < rhs.count, isDigit(rhs[b]) { b += 1 }
                let left = lhs[i..<a].drop { $0 == "0" }, right = rhs[j..<b].drop { $0 == "0" }
                if left.count != right.count { return left.count < right.count }
                for (x, y) in zip(left, right) where x != y { return x.value < y.value }
                i = a
                j = b
                continue
            }
            let x = folded(lhs[i]), y = folded(rhs[j])
            if x != y { return x < y }
            i += 1
            j += 1
        }
        if lhs.count - i != rhs.count - j { return lhs.count - i < rhs.count - j }
        return key < other
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    private static func folded(_ scalar: Unicode.Scalar) -> UInt32 {
        scalar.value >= 0x41 && scalar.value <= 0x5A ? scalar.value + 0x20 : scalar.value
    }

    private func append(_ value: StoreKitValue, indentation: Int, to output: inout String) {
        let inner = String(repeating: " ", count: indentation + 2)
        let closing = String(repeating: " ", count: indentation)
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .number(let text): output += text
        case .string(let text): Self.appendQuoted(text, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[\n\n\(closing)]"
                return
            }
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += inner
                append(element, indentation: indentation + 2, to: &output)
                output += index == elements.count - 1 ? "\n" : ",\n"
            }
            output += closing + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{\n\n\(closing)}"
                return
            }
            output += "{\n"
            let sorted = members.sorted { Self.orders($0.key, before: $1.key) }
            for (index, member) in sorted.enumerated() {
                output += inner
                Self.appendQuoted(member.key, to: &output)
                output += " : "
                append(member.value, indentation: indentation + 2, to: &output)
                output += index == sorted.count - 1 ? "\n" : ",\n"
            }
            output += closing + "}"
        }
    }

    static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "/": output += "\\/"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
