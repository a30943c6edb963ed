/// Parses JSON text (RFC 8259) into ``JSONValue``s, strictly.
///
/// The input must be exactly one JSON value, optionally surrounded by
/// whitespace (space, tab, line feed, carriage return). Everything RFC 8259
/// forbids is refused, and so is what ``JSONValue`` cannot represent:
///
/// - numbers with a fraction or an exponent (there is no floating-point case),
///   and integers outside `Int`'s range;
/// - duplicate keys in one object (RFC 8259 leaves their meaning open);
/// - a leading UTF-8 byte order mark, strings that are not valid UTF-8, raw
///   control characters in strings, and escapes of lone surrogates.
///
/// Object members keep their document order. Arrays and objects may nest at
/// most ``maxDepth`` levels and the input may be at most ``maxSize`` bytes, so
/// hostile input costs bounded memory; parsing is iterative (no recursion)
/// and linear in the input's size.
///
/// ```swift
/// let value = try JSONParser().parse(#"{"version": 1, "tags": ["a", "b"]}"#)
/// // value == ["version": 1, "tags": ["a", "b"]]
/// ```
///
/// Errors are ``JSONParseError``s that say where (line and column) and what
/// was expected there.
public struct JSONParser: Sendable, Hashable {
    /// The most levels of arrays and objects that may nest; a top-level array
    /// or object is level 1, so 0 allows scalars only.
    ///
    /// Keep it modest: a ``JSONValue`` nested many thousands of levels deep
    /// can exhaust the stack when it is compared, written or destroyed, all
    /// of which recurse.
    public var maxDepth: Int

    /// The largest input accepted, in bytes of UTF-8; checked before parsing
    /// begins.
    public var maxSize: Int

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - maxDepth: The most levels of arrays and objects that may nest
    ///     (negative counts as zero). Defaults to 64.
    ///   - maxSize: The largest input accepted, in bytes (negative counts as
    ///     zero). Defaults to 64 MiB.
    public init(maxDepth: Int = 64, maxSize: Int = 64 << 20) {
        self.maxDepth = max(0, maxDepth)
        self.maxSize = max(0, maxSize)
    }

    /// Parses `bytes`, UTF-8 JSON text, into a value.
    ///
    /// - Throws: A ``JSONParseError`` at the first problem found, which is
    ///   also the earliest in the input, except that a too-large input is
    ///   reported at line 1, column 1 without being read and an unterminated
    ///   string is reported at its opening quote.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try checkSize(bytes.count)
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        return try reader.parseDocument()
    }

    /// Parses `text` into a value, as the `[UInt8]` overload parses its UTF-8.
    ///
    /// - Throws: A ``JSONParseError`` at the first problem found.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        // Checked before copying, so that an oversized string is never duplicated.
        try checkSize(text.utf8.count)
        return try parse(Array(text.utf8))
    }

    private func byteCount(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }

    private func checkSize(_ count: Int) throws(JSONParseError) {
        guard count <= maxSize else {
            throw JSONParseError(
                line: 1, column: 1,
                message: "the input is \(byteCount(count)), larger than the limit of \(byteCount(maxSize))")
        }
    }
}

/// Why JSON text was refused, and where.
///
/// ```
/// 3:14: expected ',' or '}' after an object member, found ']'
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem. Line feeds, carriage returns and
    /// CR LF pairs each end a line.
    public var line: Int
    /// The 1-based column of the problem, counted in Unicode scalars from the
    /// start of its line.
    public var column: Int
    /// What is wrong, in plain English: usually what was expected and what
    /// was found instead.
    public var message: String

    /// Creates an error.
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

// MARK: - The reader

/// An array or object still open, with what has been read of it so far.
///
/// Kept on an explicit stack rather than the call stack, so that nesting
/// depth costs heap memory only and is bounded by ``JSONParser/maxDepth``.
private struct JSONFrame {
    var isObject: Bool
    var elements: [JSONValue] = []
    var members: [(key: String, value: JSONValue)] = []
    /// The key whose value is being read, in an object.
    var pendingKey = ""
    /// The keys so far, once there are enough that a linear scan would cost
    /// more than hashing (small objects are the common case).
    var keySet: Set<String>?

    init(isObject: Bool) { self.isObject = isObject }
}

/// Byte values of the ASCII characters the grammar uses.
private enum JSONByte {
    static let quote: UInt8 = 0x22  // "
    static let backslash: UInt8 = 0x5C
    static let slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let lowerE: UInt8 = 0x65
    static let upperE: UInt8 = 0x45

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    static func isWordCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }
}

/// The parsing state: the input and a read position into it.
private struct JSONReader {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    /// Keys per object beyond which duplicates are found by hashing.
    private static let keySetThreshold = 12
    /// Longest excerpt of input or key quoted in a message.
    private static let excerptLimit = 40

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: Structure

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        // RFC 8259 §8.1: implementations must not add a BOM; refusing it says why
        // rather than reporting a puzzling "found 'ï'".
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw error(
                "the input starts with a UTF-8 byte order mark (bytes EF BB BF), which JSON text must not have",
                at: 0)
        }
        var stack: [JSONFrame] = []
        // What the next value is expected after, for the message if it is missing.
        var expectation = "expected a JSON value"
        var afterComma = false

        nextValue: while true {
            skipWhitespace()
            var value: JSONValue
            guard index < bytes.count else {
                throw error("\(expectation), found the end of the input", at: index)
            }
            switch bytes[index] {
            case JSONByte.openBracket:
                try checkDepth(stack.count)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == JSONByte.closeBracket {
                    index += 1
                    value = .array([])
                } else {
                    stack.append(JSONFrame(isObject: false))
                    expectation = "expected a value or ']' after '['"
                    afterComma = false
                    continue nextValue
                }
            case JSONByte.openBrace:
                try checkDepth(stack.count)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == JSONByte.closeBrace {
                    index += 1
                    value = .object([])
                } else {
                    var frame = JSONFrame(isObject: true)
                    try readKey(into: &frame, expectation: "expected a string key or '}' after '{'", afterComma: false)
                    stack.append(frame)
                    expectation = "expected a value after ':' in an object"
                    afterComma = false
                    continue nextValue
                }
            case JSONByte.quote:
                value = .string(try parseString())
            case 0x74:  // t
                try expectLiteral("true", expectation: expectation)
                value = .bool(true)
            case 0x66:  // f
                try expectLiteral("false", expectation: expectation)
                value = .bool(false)
            case 0x6E:  // n
                try expectLiteral("null", expectation: expectation)
                value = .null
            case JSONByte.minus, JSONByte.zero...JSONByte.nine:
                value = .integer(try parseInteger())
            case let byte:
                var message = "\(expectation), found \(describe(at: index))"
                if afterComma, byte == JSONByte.closeBracket || byte == JSONByte.closeBrace {
                    message += " (trailing commas are not allowed)"
                }
                throw error(message, at: index)
            }

            // A value is complete: add it to the innermost open container, closing
            // containers for as long as their closing bracket follows.
            while true {
                skipWhitespace()
                guard let top = stack.indices.last else {
                    guard index == bytes.count else {
                        throw error(
                            "expected the end of the input after the JSON value, found \(describe(at: index))",
                            at: index)
                    }
                    return value
                }
                let byte: UInt8? = index < bytes.count ? bytes[index] : nil
                if stack[top].isObject {
                    let key = stack[top].pendingKey
                    stack[top].members.append((key: key, value: value))
                    stack[top].keySet?.insert(key)
                    switch byte {
                    case JSONByte.comma:
                        index += 1
                        skipWhitespace()
                        try readKey(
                            into: &stack[top], expectation: "expected a string key after ',' in an object",
                            afterComma: true)
                        expectation = "expected a value after ':' in an object"
                        afterComma = false
                        continue nextValue
                    case JSONByte.closeBrace:
                        index += 1
                        value = .object(stack.removeLast().members)
                    default:
                        throw error(
                            "expected ',' or '}' after an object member, found \(describe(at: index))", at: index)
                    }
                } else {
                    stack[top].elements.append(value)
                    switch byte {
                    case JSONByte.comma:
                        index += 1
                        expectation = "expected a value after ',' in an array"
                        afterComma = true
                        continue nextValue
                    case JSONByte.closeBracket:
                        index += 1
                        value = .array(stack.removeLast().elements)
                    default:
                        throw error(
                            "expected ',' or ']' after an array element, found \(describe(at: index))", at: index)
                    }
                }
            }
        }
    }

    /// Refuses to open another array or object when `openCount` are open
    /// already and that is the limit; called before each one is entered.
    private func checkDepth(_ openCount: Int) throws(JSONParseError) {
        guard openCount < maxDepth else {
            throw error(
                "arrays and objects are nested too deeply: expected at most \(maxDepth) levels", at: index)
        }
    }

    /// Reads an object key and the colon after it, at `index` (whitespace
    /// skipped), into `frame.pendingKey`; refuses a key `frame` already has.
    private mutating func readKey(
        into frame: inout JSONFrame, expectation: String, afterComma: Bool
    ) throws(JSONParseError) {
        guard index < bytes.count, bytes[index] == JSONByte.quote else {
            var message = "\(expectation), found \(describe(at: index))"
            if afterComma, index < bytes.count, bytes[index] == JSONByte.closeBrace {
                message += " (trailing commas are not allowed)"
            }
            throw error(message, at: index)
        }
        let keyStart = index
        let key = try parseString()
        if isDuplicate(key, in: &frame) {
            throw error("duplicate key \(excerpt(key))", at: keyStart)
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == JSONByte.colon else {
            throw error("expected ':' after the object key \(excerpt(key)), found \(describe(at: index))", at: index)
        }
        index += 1
        frame.pendingKey = key
    }

    /// Whether `frame` has a member named `key`: a scan while the object is
    /// small, a set once it is not, so large objects stay linear overall.
    private func isDuplicate(_ key: String, in frame: inout JSONFrame) -> Bool {
        if frame.keySet == nil {
            guard frame.members.count >= Self.keySetThreshold else {
                return frame.members.contains { $0.key == key }
            }
            frame.keySet = Set(frame.members.lazy.map(\.key))
        }
        return frame.keySet?.contains(key) ?? false
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case JSONByte.space, JSONByte.tab, JSONByte.lineFeed, JSONByte.carriageReturn: index += 1
            default: return
            }
        }
    }

    /// Reads `literal` (`true`, `false` or `null`) at `index`.
    private mutating func expectLiteral(_ literal: StaticString, expectation: String) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            start + expected.count <= bytes.count
                && expected.indices.allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else {
            throw error("\(expectation), found \(describe(at: start))", at: start)
        }
        index += count
    }

    // MARK: Numbers

    /// Reads an integer at `index` (a `-` or a digit).
    private mutating func parseInteger() throws(JSONParseError) -> Int {
        let start = index
        let negative = bytes[index] == JSONByte.minus
        if negative { index += 1 }
        guard index < bytes.count, JSONByte.isDigit(bytes[index]) else {
            throw error("expected a digit after '-', found \(describe(at: index))", at: index)
        }
        var value = 0
        var overflow = false
        if bytes[index] == JSONByte.zero {
            index += 1
            if index < bytes.count, JSONByte.isDigit(bytes[index]) {
                skipNumberCharacters()
                throw error("leading zeros are not allowed in numbers, found \(numberText(from: start))", at: start)
            }
        } else {
            while index < bytes.count, JSONByte.isDigit(bytes[index]) {
                if !overflow {
                    // Accumulating toward the sign reaches Int.min, whose magnitude Int.max cannot hold.
                    let digit = Int(bytes[index] - JSONByte.zero)
                    let (scaled, scaleOverflow) = value.multipliedReportingOverflow(by: 10)
                    let (sum, sumOverflow) =
                        negative
                        ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
                    if scaleOverflow || sumOverflow { overflow = true } else { value = sum }
                }
                index += 1
            }
        }
        if index < bytes.count {
            let byte = bytes[index]
            if byte == JSONByte.dot || byte == JSONByte.lowerE || byte == JSONByte.upperE {
                let kind = byte == JSONByte.dot ? "a fraction" : "an exponent"
                skipNumberCharacters()
                throw error(
                    "only integers are allowed here, found \(numberText(from: start)), which has \(kind)", at: start)
            }
        }
        if overflow {
            throw error(
                "the integer \(numberText(from: start)) is out of range: expected one from \(Int.min) to \(Int.max)",
                at: start)
        }
        return value
    }

    /// Moves past the rest of something number-like, to quote all of it.
    private mutating func skipNumberCharacters() {
        while index < bytes.count {
            let byte = bytes[index]
            guard JSONByte.isDigit(byte) || byte == JSONByte.dot || byte == JSONByte.lowerE || byte == JSONByte.upperE
                || byte == JSONByte.plus || byte == JSONByte.minus
            else { return }
            index += 1
        }
    }

    /// The number text from `start` to `index`, quoted and shortened if long.
    private func numberText(from start: Int) -> String {
        let end = min(index, start + Self.excerptLimit)
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return "'" + text + (end < index ? "..." : "") + "'"
    }

    // MARK: Strings

    /// Reads a string at `index` (its opening quote).
    private mutating func parseString() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        // Unescaped runs are copied as slices; the buffer is used only once an
        // escape is seen, so the common escape-free string is one copy.
        var buffer: [UInt8] = []
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == JSONByte.quote {
                let string: String
                if runStart == quote + 1 {  // no escape: one slice
                    string = String(decoding: bytes[runStart..<index], as: UTF8.self)
                } else {
                    buffer.append(contentsOf: bytes[runStart..<index])
                    string = String(decoding: buffer, as: UTF8.self)
                }
                index += 1
                return string
            } else if byte == JSONByte.backslash {
                buffer.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &buffer, stringStart: quote)
                runStart = index
            } else if byte < 0x20 {
                let name = scalarName(UInt32(byte))
                throw error(
                    "unescaped control character \(name) in a string: expected it written as \(escapeSuggestion(byte))",
                    at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                // Validated here, byte by byte, so that invalid UTF-8 is reported
                // where it is rather than replaced by String(decoding:as:).
                guard let length = sequenceLength(at: index) else {
                    let problem =
                        (byte < 0xC2 || byte > 0xF4)
                        ? "byte \(hexByte(byte)) cannot start a character"
                        : "the sequence starting with byte \(hexByte(byte)) is truncated or malformed"
                    throw error("invalid UTF-8 in a string: \(problem)", at: index)
                }
                index += length
            }
        }
        throw unterminatedString(at: quote)
    }

    private func unterminatedString(at quote: Int) -> JSONParseError {
        error("unterminated string: expected a closing '\"' before the end of the input", at: quote)
    }

    /// Reads an escape at `index` (its backslash), appending what it stands for
    /// to `buffer` as UTF-8.
    private mutating func parseEscape(into buffer: inout [UInt8], stringStart: Int) throws(JSONParseError) {
        let escapeStart = index
        guard index + 1 < bytes.count else { throw unterminatedString(at: stringStart) }
        let byte = bytes[index + 1]
        let simple: UInt8?
        switch byte {
        case JSONByte.quote, JSONByte.backslash, JSONByte.slash: simple = byte
        case 0x62: simple = 0x08  // b
        case 0x66: simple = 0x0C  // f
        case 0x6E: simple = JSONByte.lineFeed  // n
        case 0x72: simple = JSONByte.carriageReturn  // r
        case 0x74: simple = JSONByte.tab  // t
        case 0x75: simple = nil  // u
        default:
            throw error(
                #"invalid escape: expected one of \" \\ \/ \b \f \n \r \t \uXXXX after a backslash, found "#
                    + describe(at: index + 1, word: false),
                at: escapeStart)
        }
        if let simple {
            buffer.append(simple)
            index += 2
            return
        }
        index += 2
        let unit = try parseHex4(stringStart: stringStart)
        var scalar = unit
        switch unit {
        case 0xD800...0xDBFF:
            // UTF-16 escapes: a high surrogate must be followed at once by an escaped
            // low one. Input that ends first is an unterminated string, not a lone surrogate.
            guard index < bytes.count else { throw unterminatedString(at: stringStart) }
            guard bytes[index] == JSONByte.backslash else { throw loneSurrogate(unit, at: escapeStart) }
            guard index + 1 < bytes.count else { throw unterminatedString(at: stringStart) }
            guard bytes[index + 1] == 0x75 else { throw loneSurrogate(unit, at: escapeStart) }
            index += 2
            let low = try parseHex4(stringStart: stringStart)
            guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(unit, at: escapeStart) }
            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw loneSurrogate(unit, at: escapeStart)
        default:
            break
        }
        appendUTF8(scalar, to: &buffer)
    }

    private func loneSurrogate(_ unit: UInt32, at offset: Int) -> JSONParseError {
        let name = "\\u" + hex(unit, digits: 4)
        if unit < 0xDC00 {
            return error(
                "lone surrogate \(name): expected an escaped low surrogate (\\uDC00 to \\uDFFF) right after it",
                at: offset)
        }
        return error(
            "lone surrogate \(name): expected it right after an escaped high surrogate (\\uD800 to \\uDBFF)",
            at: offset)
    }

    /// Reads the four hex digits of a `\u` escape at `index`.
    private mutating func parseHex4(stringStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw unterminatedString(at: stringStart) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case JSONByte.zero...JSONByte.nine: digit = byte - JSONByte.zero
            case 0x41...0x46: digit = byte - 0x41 + 10  // A-F
            case 0x61...0x66: digit = byte - 0x61 + 10  // a-f
            default:
                throw error(
                    "expected four hex digits after '\\u', found \(describe(at: index, word: false))", at: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18))
            buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The length of the well-formed UTF-8 sequence at `offset` (RFC 3629:
    /// no overlong forms, no surrogates, nothing above U+10FFFF), or `nil`.
    private func sequenceLength(at offset: Int) -> Int? {
        func continuation(_ position: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            position < bytes.count && bytes[position] >= low && bytes[position] <= high
        }
        let valid: Bool
        let length: Int
        switch bytes[offset] {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            length = 2
            valid = continuation(offset + 1)
        case 0xE0:
            length = 3
            valid = continuation(offset + 1, 0xA0) && continuation(offset + 2)
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
            valid = continuation(offset + 1) && continuation(offset + 2)
        case 0xED:
            length = 3
            valid = continuation(offset + 1, 0x80, 0x9F) && continuation(offset + 2)
        case 0xF0:
            length = 4
            valid = continuation(offset + 1, 0x90) && continuation(offset + 2) && continuation(offset + 3)
        case 0xF1...0xF3:
            length = 4
            valid = continuation(offset + 1) && continuation(offset + 2) && continuation(offset + 3)
        case 0xF4:
            length = 4
            valid = continuation(offset + 1, 0x80, 0x8F) && continuation(offset + 2) && continuation(offset + 3)
        default:
            return nil
        }
        return valid ? length : nil
    }

    // MARK: Messages

    /// An error at byte `offset`, with its line and column worked out.
    ///
    /// Computed only when there is an error, so parsing itself need not track
    /// lines. Every byte before an error's offset has been accepted, so is
    /// valid UTF-8, and counting the bytes that start a scalar counts scalars.
    private func error(_ message: String, at offset: Int) -> JSONParseError {
        let end = min(max(0, offset), bytes.count)
        var line = 1
        var lineStart = 0
        var position = 0
        while position < end {
            let byte = bytes[position]
            // A CR followed by an LF is one line break, counted at the LF.
            let crlf = position + 1 < bytes.count && bytes[position + 1] == JSONByte.lineFeed
            if byte == JSONByte.lineFeed || (byte == JSONByte.carriageReturn && !crlf) {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
        var column = 1
        for position in lineStart..<max(lineStart, end) where bytes[position] & 0xC0 != 0x80 {
            column += 1
        }
        return JSONParseError(line: line, column: column, message: message)
    }

    /// What is at `offset`, for "found …": a quoted word or character, a named
    /// control character or byte, or the end of the input.
    ///
    /// - Parameter word: Whether a letter or digit is shown with the rest of
    ///   its word, which reads better than its first letter ("found 'nul'")
    ///   except inside strings, where one character is what is wrong.
    private func describe(at offset: Int, word: Bool = true) -> String {
        guard offset < bytes.count else { return "the end of the input" }
        let byte = bytes[offset]
        if word, JSONByte.isWordCharacter(byte) {
            var end = offset
            while end < bytes.count, JSONByte.isWordCharacter(bytes[end]), end - offset < Self.excerptLimit { end += 1 }
            let more = end < bytes.count && JSONByte.isWordCharacter(bytes[end])
            return "'" + String(decoding: bytes[offset..<end], as: UTF8.self) + (more ? "..." : "") + "'"
        }
        switch byte {
        case 0x20: return "a space"
        case 0x27: return "\"'\""
        case JSONByte.tab: return "a tab"
        case JSONByte.lineFeed: return "a line break"
        case JSONByte.carriageReturn: return "a carriage return"
        case 0x21...0x7E: return "'" + String(UnicodeScalar(byte)) + "'"
        case 0x00..<0x20, 0x7F: return "control character \(scalarName(UInt32(byte)))"
        default:
            guard let length = sequenceLength(at: offset) else { return "byte \(hexByte(byte))" }
            let text = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
            let value = text.unicodeScalars.first?.value ?? 0
            return "'\(text)' (\(scalarName(value)))"
        }
    }

    /// `key` quoted for a message: control characters escaped, long keys cut.
    private func excerpt(_ key: String) -> String {
        var text = "'"
        var count = 0
        for scalar in key.unicodeScalars {
            if count == Self.excerptLimit {
                text += "..."
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                text += "\\u" + hex(scalar.value, digits: 4)
            } else {
                text.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return text + "'"
    }

    /// How a control character can be escaped, for the message refusing it raw.
    private func escapeSuggestion(_ byte: UInt8) -> String {
        switch byte {
        case 0x08: #"\b"#
        case 0x0C: #"\f"#
        case JSONByte.lineFeed: #"\n"#
        case JSONByte.carriageReturn: #"\r"#
        case JSONByte.tab: #"\t"#
        default: "\\u" + hex(UInt32(byte), digits: 4)
        }
    }

    private func scalarName(_ value: UInt32) -> String { "U+" + hex(value, digits: 4) }

    private func hexByte(_ byte: UInt8) -> String { "0x" + hex(UInt32(byte), digits: 2) }

    private func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
