import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperJSON

/// Reads the JSON text of a StoreKit configuration file into located
/// ``StoreKitNode``s.
///
/// Parsing is `JSONParser`'s: strict RFC 8259, duplicate keys refused,
/// limits on size and depth, errors with a line and a column. Two things it
/// does not do are added around it:
///
/// - numbers with a fraction or an exponent, which `JSONValue` cannot hold
///   and Xcode writes (`_lastSynchronizedDate`), are masked before parsing
///   as strings of the same length and restored as ``StoreKitValue/number(_:)``
///   afterwards, so that every position stays where it was;
/// - positions: the parsed values are walked together with the text, which
///   the parser has just proved well-formed, to find where each key and value
///   starts and ends.
public struct StoreKitJSONReader: Sendable {
    /// The largest file read, in bytes.
    public var maxSize: Int
    /// The deepest nesting of arrays and objects (a configuration needs 7).
    public var maxDepth: Int

    /// Creates a reader. The defaults are far above any real configuration
    /// (Xcode's own files are a few kilobytes and 7 levels deep).
    public init(maxSize: Int = 16 << 20, maxDepth: Int = 64) {
        self.maxSize = maxSize
        self.maxDepth = maxDepth
    }

    /// The file's tree.
    ///
    /// - Throws: The diagnostic that says why it is not JSON, and where.
    public func read(_ bytes: [UInt8], file: String) throws(StoreKitSyntaxError) -> StoreKitNode {
        let shielded = NumberShield(bytes)
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: maxDepth, maxSize: maxSize).parse(shielded.bytes)
        } catch {
            let message = "\(file) is not a StoreKit configuration file: it is not valid JSON (\(error.message))"
            throw StoreKitSyntaxError(diagnostic: Diagnostic(
                .error, rule: StoreKitRuleID.syntax, message,
                at: SourceLocation(file: file, line: error.line, column: error.column)))
        }
        var locator = Locator(bytes: shielded.bytes, numbers: shielded.numbers, fileID: SourceFileTable.id(for: file))
        return locator.node(for: value)
    }
}

/// Why a file is not JSON that can be read, as a located diagnostic.
public struct StoreKitSyntaxError: Error, Sendable {
    /// The problem, at its line and column.
    public var diagnostic: Diagnostic
}

/// The text with every number that has a fraction or an exponent replaced by
/// a string of the same length (`1.5` becomes `"5"`), and those numbers by offset.
private struct NumberShield {
    var bytes: [UInt8]
    var numbers: [Int: String] = [:]

    init(_ input: [UInt8]) {
        bytes = input
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {  // a string: skip it, escapes included
                index += 1
                while index < bytes.count, bytes[index] != 0x22 {
                    index += bytes[index] == 0x5C ? 2 : 1
                }
                index += 1
            } else if byte == 0x2D || (byte >= 0x30 && byte <= 0x39) {
                let end = Self.numberEnd(in: bytes, from: index)
                if let end, end.hasFraction, end.index - index >= 3 {
                    numbers[index] = String(decoding: bytes[index..<end.index], as: UTF8.self)
                    bytes[index] = 0x22
                    bytes[end.index - 1] = 0x22
                }
                index = max(index + 1, end?.index ?? index + 1)
            } else {
                index += 1
            }
        }
    }

    /// The end of a well-formed JSON number starting at `start`, and whether
    /// it has a fraction or an exponent; nil when it is not one (the parser
    /// then reports it as written).
    static func numberEnd(in bytes: [UInt8], from start: Int) -> (index: Int, hasFraction: Bool)? {
        var index = start
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - first
        }
        if bytes[index] == 0x2D { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x30 {
            index += 1
        } else if digits() == 0 {
            return nil
        }
        var hasFraction = false
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            guard digits() > 0 else { return nil }
            hasFraction = true
        }
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard digits() > 0 else { return nil }
            hasFraction = true
        }
        // A number runs into nothing but a delimiter; anything else is the parser's to report.
        if index < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D].contains(bytes[index]) { return nil }
        return (index, hasFraction)
    }
}

/// Walks well-formed JSON text alongside its parsed values, noting where
/// each starts and ends. Object members come in document order in both.
private struct Locator {
    let bytes: [UInt8]
    let numbers: [Int: String]
    let fileID: UInt32
    var index = 0
    /// The position of `index`, kept up to date as it moves forward.
    var line = 1
    var column = 1

    init(bytes: [UInt8], numbers: [Int: String], fileID: UInt32) {
        self.bytes = bytes
        self.numbers = numbers
        self.fileID = fileID
    }

    mutating func node(for value: JSONValue) -> StoreKitNode {
        skipWhitespace()
        let start = (line, column)
        let content: StoreKitNode.Content
        switch value {
        case .object(let members):
            advance()  // {
            var located: [StoreKitNode.Member] = []
            for member in members {
                skipWhitespace()
                let keyStart = (line, column)
                skipString()
                let keyRange = range(from: keyStart)
                skipWhitespace()
                advance()  // :
                located.append(StoreKitNode.Member(key: member.key, keyRange: keyRange, value: node(for: member.value)))
                skipWhitespace()
                advance()  // , or }
            }
            if members.isEmpty {
                skipWhitespace()
                advance()
            }
            content = .object(located)
        case .array(let elements):
            advance()  // [
            var located: [StoreKitNode] = []
            for element in elements {
                located.append(node(for: element))
                skipWhitespace()
                advance()  // , or ]
            }
            if elements.isEmpty {
                skipWhitespace()
                advance()
            }
            content = .array(located)
        case .string(let text):
            if let number = numbers[index] {
                content = .number(number)
            } else {
                content = .string(text)
            }
            skipString()
        case .null:
            content = .null
            skipWord()
        case .bool(let flag):
            content = .bool(flag)
            skipWord()
        case .integer(let number):
            content = .integer(number)
            skipWord()
        }
        return StoreKitNode(content: content, range: range(from: start))
    }

    private func range(from start: (Int, Int)) -> SourceRange {
        SourceRange(
            fileID: fileID, startLine: UInt32(clamping: start.0), startColumn: UInt32(clamping: start.1),
            endLine: UInt32(clamping: line), endColumn: UInt32(clamping: column))
    }

    /// Moves one byte forward, counting lines (LF, CR, CR LF) and columns in Unicode scalars.
    private mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == 0x0A || (byte == 0x0D && !(index < bytes.count && bytes[index] == 0x0A)) {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80, byte != 0x0D {
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance() }
    }

    /// Past a string at `index`, its quotes and escapes included.
    private mutating func skipString() {
        advance()  // "
        while index < bytes.count, bytes[index] != 0x22 {
            if bytes[index] == 0x5C { advance() }
            advance()
        }
        advance()  // "
    }

    /// Past a literal or a number.
    private mutating func skipWord() {
        while index < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D].contains(bytes[index]) { advance() }
    }
}
