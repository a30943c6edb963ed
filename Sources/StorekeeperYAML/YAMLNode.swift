import StorekeeperDiagnostics

/// A node of a parsed YAML document: a scalar, a sequence or a mapping, with
/// the place it was written.
///
/// A node is a light view (the document and an index); copying it is cheap.
public struct YAMLNode: Sendable {
    /// The three kinds of YAML node.
    public enum Kind: UInt8, Sendable, Hashable, CustomStringConvertible {
        /// Text: `coins`, `"0.99"`, a `|` block.
        case scalar
        /// A list: `- a` or `[a, b]`.
        case sequence
        /// Keys and values: `a: 1` or `{a: 1}`.
        case mapping

        /// "a value", "a list" or "a mapping": how a message names the kind.
        public var description: String {
            switch self {
            case .scalar: "a single value"
            case .sequence: "a list"
            case .mapping: "a mapping"
            }
        }
    }

    /// The document this node belongs to.
    public let document: YAMLDocument
    let index: Int32

    init(document: YAMLDocument, index: Int32) {
        self.document = document
        self.index = index
    }

    @inline(__always) var record: NodeRecord { document.records[Int(index)] }

    /// What kind of node this is.
    public var kind: Kind { record.kind }

    /// Where the node starts: its first character (an opening quote or bracket included).
    public var location: SourceLocation {
        let record = record
        return SourceLocation(file: document.file, line: Int(record.startLine), column: Int(record.startColumn))
    }

    /// Where the node starts and ends.
    public var range: SourceRange {
        let record = record
        return SourceRange(
            start: SourceLocation(file: document.file, line: Int(record.startLine), column: Int(record.startColumn)),
            end: SourceLocation(file: document.file, line: Int(record.endLine), column: Int(record.endColumn)))
    }

    /// The text of a scalar, exactly as YAML reads it (quotes removed, escapes
    /// applied, nothing converted); nil for a sequence or mapping.
    public var text: String? {
        let record = record
        return record.kind == .scalar ? document.scalars[Int(record.first)] : nil
    }

    /// How a scalar was written; nil for a sequence or mapping.
    public var scalarStyle: ScalarStyle? {
        let record = record
        return record.kind == .scalar ? ScalarStyle(rawValue: record.style) : nil
    }

    /// Whether a collection was written in flow style (`[a, b]`, `{a: 1}`).
    public var isFlow: Bool {
        let record = record
        return record.kind != .scalar && record.style != 0
    }

    /// An explicit tag (`!!str`, `!custom`), if the author wrote one.
    public var tag: String? {
        record.hasTag ? document.tags[index] : nil
    }

    /// Whether this is a plain null: an empty value, `~` or `null`.
    public var isNull: Bool {
        let record = record
        guard record.kind == .scalar, record.style == ScalarStyle.plain.rawValue, !record.hasTag else { return false }
        switch document.scalars[Int(record.first)] {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// The items of a sequence (empty for other kinds).
    public var items: Items { Items(node: self) }

    /// The key-value pairs of a mapping, merge keys resolved (empty for other kinds).
    public var pairs: Pairs { Pairs(node: self) }

    /// The value for a key of a mapping, if the mapping has it.
    public subscript(key: String) -> YAMLNode? {
        for pair in pairs where pair.key.text == key { return pair.value }
        return nil
    }

    /// A mapping's key and value.
    public struct Pair: Sendable {
        /// The key (always a scalar).
        public let key: YAMLNode
        /// The value.
        public let value: YAMLNode
    }

    /// The items of a sequence node.
    public struct Items: RandomAccessCollection, Sendable {
        let document: YAMLDocument
        let first: Int
        public let endIndex: Int

        init(node: YAMLNode) {
            let record = node.record
            document = node.document
            if record.kind == .sequence {
                first = Int(record.first)
                endIndex = Int(record.count)
            } else {
                first = 0
                endIndex = 0
            }
        }

        /// Always 0.
        public var startIndex: Int { 0 }
        /// The item at a position.
        public subscript(position: Int) -> YAMLNode {
            YAMLNode(document: document, index: document.children[first + position])
        }
    }

    /// The pairs of a mapping node.
    public struct Pairs: RandomAccessCollection, Sendable {
        let document: YAMLDocument
        let first: Int
        public let endIndex: Int

        init(node: YAMLNode) {
            let record = node.record
            document = node.document
            if record.kind == .mapping {
                first = Int(record.first)
                endIndex = Int(record.count) / 2
            } else {
                first = 0
                endIndex = 0
            }
        }

        /// Always 0.
        public var startIndex: Int { 0 }
        /// The pair at a position.
        public subscript(position: Int) -> Pair {
            let base = first + position * 2
            return Pair(
                key: YAMLNode(document: document, index: document.children[base]),
                value: YAMLNode(document: document, index: document.children[base + 1]))
        }
    }
}
