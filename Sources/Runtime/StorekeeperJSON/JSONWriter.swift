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
/// empty arrays and objects are `[]` and `{}`. With ``inlineScalarArrays``,
/// arrays of scalars stay on one line instead. Compact output has no
/// whitespace at all. Neither adds a trailing newline.
///
/// The text is built as UTF-8 bytes and turned into a `String` once, at the
/// end; runs of string content that need no escaping are copied in bulk.
public struct JSONWriter: Sendable, Hashable {
    /// Spaces per nesting level, or `nil` for compact output on one line.
    public var indentation: Int?

    /// Whether pretty output writes an array of scalars on a single line.
    ///
    /// When `true` and ``indentation`` is not `nil`, a non-empty array whose
    /// elements are all scalars (`null`, booleans, integers and strings) is
    /// written as `[1, 2, 3]`: on the current line, elements separated by
    /// `", "`. An array holding any array or object is laid out as usual, one
    /// element per line, though its scalar-only elements are themselves
    /// inlined:
    ///
    /// ```json
    /// {
    ///   "tags": ["a", "b"],
    ///   "matrix": [
    ///     [1, 2],
    ///     [3, 4]
    ///   ],
    ///   "empty": []
    /// }
    /// ```
    ///
    /// Objects are never inlined, and compact output (``indentation`` `nil`)
    /// is unaffected. Defaults to `false`.
    package var inlineScalarArrays: Bool

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - indentation: Spaces per nesting level (negative counts as zero),
    ///     or `nil` for compact output. Defaults to 2.
    ///   - inlineScalarArrays: Whether pretty output writes arrays of scalars
    ///     on one line; see ``inlineScalarArrays``. Defaults to `false`.
    public init(indentation: Int? = 2, inlineScalarArrays: Bool = false) {
        self.indentation = indentation.map { max(0, $0) }
        self.inlineScalarArrays = inlineScalarArrays
    }

    /// The JSON text of `value`, without a trailing newline.
    public func serialize(_ value: JSONValue) -> String {
        var serializer = Serializer(writer: self)
        serializer.write(value, depth: 0)
        return String(decoding: serializer.bytes, as: UTF8.self)
    }

    /// Appends the JSON text of `value` to `output`, without a trailing newline.
    public func write(_ value: JSONValue, to output: inout String) {
        output += serialize(value)
    }

    /// `string` as a JSON string literal, quotes included.
    public static func quoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + string.utf8.count / 8 + 16)
        appendQuoted(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` to `output` as a JSON string literal, quotes included.
    package static func appendQuoted(_ string: String, to output: inout String) {
        output += quoted(string)
    }

    /// Appends `string` to `bytes` as a JSON string literal, quotes included,
    /// in UTF-8.
    static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            appendEscaped(utf8, to: &bytes)
        }
        if done == nil {
            // Not contiguous UTF-8 (a bridged string, say): copy it first.
            Array(string.utf8).withUnsafeBufferPointer { appendEscaped($0, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the well-formed UTF-8 `utf8`, escaped for a JSON string
    /// literal, to `bytes`; runs needing no escape are copied in one go.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        var runStart = 0
        var index = 0
        while index < count {
            // Eight bytes at a time while they are all plain ASCII.
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if !mayNeedEscaping(word) {
                    index += 8
                    continue
                }
            }
            // Then byte by byte, to at least the end of that word.
            let stop = min(index + 8, count)
            while index < stop {
                let byte = base[index]
                // Printable ASCII other than `"`, `\`, DEL; and lead or
                // continuation bytes of scalars that are never escaped.
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F
                    && byte != 0xC2 && byte != 0xE2
                {
                    index += 1
                    continue
                }
                // The sequence at `index`, its length and escape (if any).
                var length = 1
                var escape: UInt8 = 0 // the letter after `\`; `u` for `\u00xx`, 0xFF for `\u202x`
                var code: UInt8 = byte // the `xx` of `\u00xx`, or the last byte of U+2028/9
                switch byte {
                case 0x22: escape = UInt8(ascii: "\"")
                case 0x5C: escape = UInt8(ascii: "\\")
                case 0x08: escape = UInt8(ascii: "b")
                case 0x0C: escape = UInt8(ascii: "f")
                case 0x0A: escape = UInt8(ascii: "n")
                case 0x0D: escape = UInt8(ascii: "r")
                case 0x09: escape = UInt8(ascii: "t")
                case 0x00..<0x20, 0x7F: escape = UInt8(ascii: "u")
                case 0xC2:
                    // U+0080–U+00BF; U+0080–U+009F (C1 controls) are escaped.
                    length = 2
                    if index + 1 < count, base[index + 1] <= 0x9F {
                        escape = UInt8(ascii: "u")
                        code = base[index + 1]
                    }
                default: // 0xE2: U+2000–U+2FFF; U+2028 and U+2029 are escaped.
                    length = 3
                    if index + 2 < count, base[index + 1] == 0x80,
                        base[index + 2] == 0xA8 || base[index + 2] == 0xA9
                    {
                        escape = 0xFF
                        code = base[index + 2]
                    }
                }
                if escape == 0 {
                    index += length
                    continue
                }
                if runStart < index {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                }
                bytes.append(UInt8(ascii: "\\"))
                if escape == UInt8(ascii: "u") {
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(hexDigit(code >> 4))
                    bytes.append(hexDigit(code & 0x0F))
                } else if escape == 0xFF {
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(UInt8(ascii: "2"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "2"))
                    bytes.append(code == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                } else {
                    bytes.append(escape)
                }
                index += length
                runStart = index
            }
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
    }

    /// Whether any of the eight bytes in `word` is not plain ASCII: a
    /// control character, `"`, `\`, DEL, or a byte of a multi-byte sequence.
    /// Exact when `false`; a `true` is checked byte by byte.
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Classic SWAR tests: a byte below 0x20, or a zero byte after XOR.
        let belowSpace = (word &- ones &* 0x20) & ~word & highs
        let quote = ((word ^ (ones &* 0x22)) &- ones) & ~(word ^ (ones &* 0x22)) & highs
        let backslash = ((word ^ (ones &* 0x5C)) &- ones) & ~(word ^ (ones &* 0x5C)) & highs
        // With no byte at or above 0x80, adding 1 sets a high bit only for 0x7F.
        let deleteOrHigh = ((word &+ ones) | word) & highs
        return (belowSpace | quote | backslash | deleteOrHigh) != 0
    }

    /// The lowercase hex digit for `value` (0–15).
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// One serialization: the bytes written so far and reusable indentation.
    private struct Serializer {
        var bytes: [UInt8] = []
        /// At least as many spaces as the deepest line written so far needs.
        var spaces: [UInt8] = []
        let indentation: Int?
        let inlineScalarArrays: Bool

        init(writer: JSONWriter) {
            indentation = writer.indentation
            inlineScalarArrays = writer.indentation != nil && writer.inlineScalarArrays
            bytes.reserveCapacity(1 << 16)
            spaces = Array(repeating: UInt8(ascii: " "), count: 64 * (indentation ?? 0))
        }

        mutating func write(_ value: JSONValue, depth: Int) {
            switch value {
            case .null:
                bytes.append(contentsOf: "null".utf8)
            case let .bool(flag):
                bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
            case let .integer(number):
                writeInteger(number)
            case let .string(text):
                JSONWriter.appendQuoted(text, to: &bytes)
            case let .array(elements):
                guard !elements.isEmpty else {
                    bytes.append(UInt8(ascii: "["))
                    bytes.append(UInt8(ascii: "]"))
                    return
                }
                bytes.append(UInt8(ascii: "["))
                if inlineScalarArrays && elements.allSatisfy(\.isScalar) {
                    for index in elements.indices {
                        if index > 0 {
                            bytes.append(UInt8(ascii: ","))
                            bytes.append(UInt8(ascii: " "))
                        }
                        write(elements[index], depth: depth + 1)
                    }
                } else {
                    for index in elements.indices {
                        if index > 0 { bytes.append(UInt8(ascii: ",")) }
                        newline(depth: depth + 1)
                        write(elements[index], depth: depth + 1)
                    }
                    newline(depth: depth)
                }
                bytes.append(UInt8(ascii: "]"))
            case let .object(members):
                guard !members.isEmpty else {
                    bytes.append(UInt8(ascii: "{"))
                    bytes.append(UInt8(ascii: "}"))
                    return
                }
                bytes.append(UInt8(ascii: "{"))
                for index in members.indices {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    newline(depth: depth + 1)
                    JSONWriter.appendQuoted(members[index].key, to: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    if indentation != nil { bytes.append(UInt8(ascii: " ")) }
                    write(members[index].value, depth: depth + 1)
                }
                newline(depth: depth)
                bytes.append(UInt8(ascii: "}"))
            }
        }

        /// `number` in decimal, as `String(number)` writes it.
        mutating func writeInteger(_ number: Int) {
            if number >= 0 && number < 10 {
                bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: number))
                return
            }
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = number.magnitude
            // At most 19 digits (Int.min), so `limit` stays below UInt.max.
            var digits = 1
            var limit: UInt = 10
            while magnitude >= limit {
                digits += 1
                limit &*= 10
            }
            let end = bytes.count + digits
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
            bytes.withUnsafeMutableBufferPointer { buffer in
                var position = end
                repeat {
                    position -= 1
                    buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                    magnitude /= 10
                } while magnitude != 0
            }
        }

        /// In pretty output, a line break and the indentation for `depth`.
        mutating func newline(depth: Int) {
            guard let indentation else { return }
            bytes.append(UInt8(ascii: "\n"))
            let count = indentation * depth
            guard count > 0 else { return }
            if spaces.count < count {
                spaces = Array(repeating: UInt8(ascii: " "), count: max(count, 2 * spaces.count))
            }
            spaces.withUnsafeBufferPointer { spaces in
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: spaces[..<count]))
            }
        }
    }
}

extension JSONValue {
    /// Whether this is `null`, a boolean, an integer or a string.
    fileprivate var isScalar: Bool {
        switch self {
        case .null, .bool, .integer, .string: true
        case .array, .object: false
        }
    }
}
