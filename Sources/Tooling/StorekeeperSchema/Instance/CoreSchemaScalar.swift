import StorekeeperCore
import StorekeeperYAML

/// How a scalar is typed under YAML 1.2's core schema, as the YAML language
/// server (through the `yaml` package) types it before validating against a
/// JSON Schema: plain `true`/`false` are booleans, plain digits integers,
/// plain decimals floats, plain `null`/`~`/nothing null; quoted and block
/// scalars are text. YAML 1.1's `yes`, `no`, `on`, `off` are text.
///
/// (Storekeeper's own decoder keeps every scalar's text instead; this typing
/// is what an editor's schema check sees.)
enum CoreSchemaScalar {
    /// The YAML 1.2 core tags, long form (libyaml expands `!!str` to these).
    private static let tagPrefix = "tag:yaml.org,2002:"

    /// The value of a scalar node.
    static func value(of node: YAMLNode) -> InstanceValue {
        if node.isPlaceholder { return .null }
        let text = node.text ?? ""
        if let tag = node.tag {
            return tagged(text, tag: tag)
        }
        guard node.scalarStyle == .plain else { return .string(text) }
        return plain(text)
    }

    /// A plain, untagged scalar, resolved by the core schema's patterns.
    static func plain(_ text: String) -> InstanceValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let integer = integer(text) { return integer }
        if let float = float(text) { return .float(float) }
        return .string(text)
    }

    /// An explicitly tagged scalar: `!!str 5` is text, `!!int "5"` a number.
    /// A tag that does not fit its text, or any other tag, leaves text.
    private static func tagged(_ text: String, tag: String) -> InstanceValue {
        let name = tag.hasPrefix(tagPrefix) ? String(tag.dropFirst(tagPrefix.count)) : tag
        switch name {
        case "null": return .null
        case "bool" where ["true", "True", "TRUE", "false", "False", "FALSE"].contains(text):
            return .bool(text.lowercased() == "true")
        case "int": return integer(text) ?? .string(text)
        case "float": return float(text).map(InstanceValue.float) ?? .string(text)
        default: return .string(text)
        }
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`, as a decimal integer.
    static func integer(_ text: String) -> InstanceValue? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x") {
            let radix = bytes[1] == UInt8(ascii: "o") ? 8 : 16
            let digits = text.dropFirst(2)
            guard digits.allSatisfy({ $0.isASCII && ($0.hexDigitValue.map { $0 < radix } ?? false) }) else { return nil }
            if let value = UInt64(digits, radix: radix) { return .integer(String(value)) }
            // Too large for 64 bits: a number all the same, as JavaScript reads it.
            return .float(digits.reduce(0.0) { $0 * Double(radix) + Double($1.hexDigitValue ?? 0) })
        }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        let digits = bytes[index...]
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        if significant.isEmpty { return .integer("0") }
        return .integer((negative ? "-" : "") + String(decoding: significant, as: UTF8.self))
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?.inf`
    /// and `.nan` in their three spellings each.
    static func float(_ text: String) -> Double? {
        var body = Substring(text)
        var sign = 1.0
        if let first = body.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        switch body {
        case ".inf", ".Inf", ".INF": return sign * .infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        var scanner = body.utf8[...]
        func digits() -> Int {
            let count = scanner.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            scanner = scanner.dropFirst(count)
            return count
        }
        let whole = digits()
        var fraction = 0
        if scanner.first == UInt8(ascii: ".") {
            scanner = scanner.dropFirst()
            fraction = digits()
            // `.5` and `5.` are floats, `.` is not.
            guard whole > 0 || fraction > 0 else { return nil }
        } else if whole == 0 {
            return nil
        }
        if let e = scanner.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            scanner = scanner.dropFirst()
            if let s = scanner.first, s == UInt8(ascii: "-") || s == UInt8(ascii: "+") { scanner = scanner.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        guard scanner.isEmpty else { return nil }
        // Swift reads `5.` and `.5` as C's strtod does; prefix a 0 for the latter.
        let normalized = (whole == 0 ? "0" : "") + String(body)
        return Double(normalized).map { sign * $0 }
    }
}
