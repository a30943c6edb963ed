import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// The file name every test parses under, so that locations can be compared whole.
let testFile = "t.yaml"

/// Parses UTF-8 text as `t.yaml`.
func parseYAML(_ text: String, limits: YAMLLimits = .default) -> YAMLParseResult {
    YAMLParser.parse(Array(text.utf8), file: testFile, limits: limits)
}

/// Parses raw bytes as `t.yaml`.
func parseYAML(bytes: [UInt8], limits: YAMLLimits = .default) -> YAMLParseResult {
    YAMLParser.parse(bytes, file: testFile, limits: limits)
}

/// A location in `t.yaml`.
func at(_ line: Int, _ column: Int) -> StorekeeperDiagnostics.SourceLocation {
    StorekeeperDiagnostics.SourceLocation(file: testFile, line: line, column: column)
}

/// "line:column-line:column", the whole range of a node, for compact comparisons.
func span(_ node: YAMLNode) -> String {
    span(node.range)
}

/// "line:column-line:column" of a range.
func span(_ range: SourceRange) -> String {
    "\(range.start.line):\(range.start.column)-\(range.end.line):\(range.end.column)"
}

/// Checks one diagnostic: an error of `rule`, starting at `line`:`column` of
/// `t.yaml`, whose message contains every one of `words`.
func expectError(
    _ diagnostic: Diagnostic?, rule: String, line: Int, column: Int, mentions words: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    guard let diagnostic else {
        Issue.record("expected a \(rule) error at \(line):\(column), found none", sourceLocation: sourceLocation)
        return
    }
    #expect(diagnostic.severity == .error, sourceLocation: sourceLocation)
    #expect(diagnostic.rule == rule, sourceLocation: sourceLocation)
    #expect(diagnostic.location == at(line, column), "message: \(diagnostic.message)", sourceLocation: sourceLocation)
    for word in words {
        #expect(diagnostic.message.contains(word), "\(diagnostic.message) should mention \(word)", sourceLocation: sourceLocation)
    }
}

/// Checks that a result holds exactly one diagnostic, an error as `expectError`
/// describes, and returns it.
@discardableResult
func expectOnlyError(
    _ result: YAMLParseResult, rule: String, line: Int, column: Int, mentions words: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Diagnostic? {
    #expect(
        result.diagnostics.count == 1, "diagnostics: \(result.diagnostics.map { "\($0.location) \($0.rule): \($0.message)" })",
        sourceLocation: sourceLocation)
    expectError(result.diagnostics.first, rule: rule, line: line, column: column, mentions: words, sourceLocation: sourceLocation)
    return result.diagnostics.first
}

/// Checks that a parse stopped: no document and exactly one error as described.
@discardableResult
func expectRejected(
    _ result: YAMLParseResult, rule: String, line: Int, column: Int, mentions words: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Diagnostic? {
    #expect(result.document == nil, "a document was returned", sourceLocation: sourceLocation)
    return expectOnlyError(result, rule: rule, line: line, column: column, mentions: words, sourceLocation: sourceLocation)
}

/// Text encoded as UTF-16 little-endian, with a byte order mark.
func utf16LE(_ text: String) -> [UInt8] {
    [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
}

/// Text encoded as UTF-16 big-endian, with a byte order mark.
func utf16BE(_ text: String) -> [UInt8] {
    [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
}

/// The 1-based column just after `prefix`, counting Unicode scalars.
func column(after prefix: String) -> Int {
    prefix.unicodeScalars.count + 1
}

/// A YAML node as plain values, for comparing whole trees.
indirect enum PlainNode: Equatable, CustomStringConvertible {
    case scalar(String, ScalarStyle)
    case sequence([PlainNode], flow: Bool)
    case mapping([PlainEntry], flow: Bool)

    init(_ node: YAMLNode) {
        switch node.kind {
        case .scalar:
            self = .scalar(node.text ?? "<nil>", node.scalarStyle ?? .plain)
        case .sequence:
            self = .sequence(node.items.map(PlainNode.init), flow: node.isFlow)
        case .mapping:
            self = .mapping(
                node.pairs.map { PlainEntry(key: $0.key.text ?? "<nil>", keyStyle: $0.key.scalarStyle ?? .plain, value: PlainNode($0.value)) },
                flow: node.isFlow)
        }
    }

    var description: String {
        switch self {
        case .scalar(let text, let style): "\(style)(\(text.debugDescription))"
        case .sequence(let items, let flow): (flow ? "flow" : "block") + "\(items)"
        case .mapping(let entries, let flow):
            (flow ? "flow" : "block") + "{" + entries.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// One key and value of a `PlainNode.mapping`.
struct PlainEntry: Equatable {
    var key: String
    var keyStyle: ScalarStyle
    var value: PlainNode
}
