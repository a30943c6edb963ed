/// A JSON value whose objects keep their members in the order given, so that
/// serialized documents are deterministic.
///
/// Only what diagnostics formats need is modelled: there are no floating-point
/// numbers. Dictionary literals keep their written order:
///
/// ```swift
/// let value: JSONValue = ["version": 1, "tags": ["a", "b"], "done": true]
/// ```
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case integer(Int)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in output order. Keys are not deduplicated.
    case object([(key: String, value: JSONValue)])

    /// Whether two values are equal, member order included.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates an integer.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}

/// Serializes ``JSONValue``s to JSON text (RFC 8259), deterministically.
///
/// Strings are escaped as follows: `"` and `\` with a backslash; backspace,
/// form feed, newline, carriage return and tab as `\b`, `\f`, `\n`, `\r`,
/// `\t`; every other control character (U+0000–U+001F, U+007F–U+009F) as
/// `\u00xx` with lowercase hex digits; U+2028 and U+2029 as `\u2028` and
/// `\u2029` (valid JSON, but line breaks to JavaScript). Everything else,
/// non-ASCII included, is written as is, in UTF-8; `/` is not escaped.
///
/// Pretty output puts each array element and object member on its own line,
/// indented by ``indentation`` spaces per level, with `": "` after keys;
/// empty arrays and objects are `[]` and `{}`. Compact output has no
/// whitespace at all. Neither adds a trailing newline.
public struct JSONWriter: Sendable, Hashable {
    /// Spaces per nesting level, or `nil` for compact output on one line.
    public var indentation: Int?

    /// Creates a writer.
    ///
    /// - Parameter indentation: Spaces per nesting level (negative counts as
    ///   zero), or `nil` for compact output. Defaults to 2.
    public init(indentation: Int? = 2) {
        self.indentation = indentation.map { max(0, $0) }
    }

    /// The JSON text of `value`, without a trailing newline.
    public func serialize(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    /// Appends the JSON text of `value` to `output`, without a trailing newline.
    public func write(_ value: JSONValue, to output: inout String) {
        write(value, depth: 0, to: &output)
    }

    /// `string` as a JSON string literal, quotes included.
    public static func quoted(_ string: String) -> String {
        var output = ""
        appendQuoted(string, to: &output)
        return output
    }

    /// Appends `string` to `output` as a JSON string literal, quotes included.
    public static func appendQuoted(_ string: String, to output: inout String) {
        output.unicodeScalars.append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
                output += "\\u" + hex4(scalar.value)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output.unicodeScalars.append("\"")
    }

    /// Four lowercase hex digits.
    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func write(_ value: JSONValue, depth: Int, to output: inout String) {
        switch value {
        case .null:
            output += "null"
        case let .bool(flag):
            output += flag ? "true" : "false"
        case let .integer(number):
            output += String(number)
        case let .string(text):
            Self.appendQuoted(text, to: &output)
        case let .array(elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(depth: depth + 1, to: &output)
                write(element, depth: depth + 1, to: &output)
            }
            newline(depth: depth, to: &output)
            output += "]"
        case let .object(members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                newline(depth: depth + 1, to: &output)
                Self.appendQuoted(member.key, to: &output)
                output += indentation == nil ? ":" : ": "
                write(member.value, depth: depth + 1, to: &output)
            }
            newline(depth: depth, to: &output)
            output += "}"
        }
    }

    /// In pretty output, a line break and the indentation for `depth`.
    private func newline(depth: Int, to output: inout String) {
        guard let indentation else { return }
        output += "\n"
        output += String(repeating: " ", count: indentation * depth)
    }
}
