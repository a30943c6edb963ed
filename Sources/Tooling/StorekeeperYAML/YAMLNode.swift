import StorekeeperCore
public import StorekeeperDiagnostics

/// A node of a parsed YAML document: a scalar, a sequence or a mapping, with
/// the place it was written.
///
/// A node is a light view (the document and an index); copying it is cheap.
public struct YAMLNode: Sendable {
    /// The three kinds of YAML node.
    public enum Kind: UInt8, Sendable, Hashable, BitwiseCopyable, CustomStringConvertible {
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
    @inlinable public var document: YAMLDocument { storage }

    /// The document, unowned: reading through it costs no reference counting.
    @usableFromInline unowned(unsafe) let storage: YAMLDocument
    /// Keeps the document alive for as long as the node is. Nil only for
    /// nodes reached through `YAMLDocument.withUnownedRoot`, whose caller
    /// keeps the document alive for the walk, so that a decoder's millions of
    /// node copies cost no atomic reference counting.
    @usableFromInline let owner: YAMLDocument?
    @usableFromInline let index: Int32

    @inlinable init(document: YAMLDocument, index: Int32) {
        storage = document
        owner = document
        self.index = index
    }

    @inlinable init(storage: YAMLDocument, owner: YAMLDocument?, index: Int32) {
        self.storage = storage
        self.owner = owner
        self.index = index
    }

    /// A node of the same document, carrying this node's ownership.
    @inlinable func sibling(_ index: Int32) -> YAMLNode {
        YAMLNode(storage: storage, owner: owner, index: index)
    }

    @inlinable var record: NodeRecord { storage.records[Int(index)] }

    /// What kind of node this is.
    @inlinable public var kind: Kind { record.kind }

    /// Where the node starts: its first character (an opening quote or bracket included).
    @inlinable public var location: SourceLocation {
        let record = record
        return SourceLocation(file: storage.file, fileID: storage.fileID, line: Int(record.startLine), column: Int(record.startColumn))
    }

    /// Where the node starts and ends.
    @inlinable public var range: SourceRange {
        let record = record
        return SourceRange(
            fileID: storage.fileID, startLine: record.startLine, startColumn: record.startColumn,
            endLine: record.endLine, endColumn: record.endColumn)
    }

    /// The text of a scalar, exactly as YAML reads it (quotes removed, escapes
    /// applied, nothing converted); nil for a sequence or mapping.
    @inlinable public var text: String? {
        let record = record
        return record.kind == .scalar ? storage.string(record) : nil
    }

    /// Whether this is a scalar whose text is exactly `text`, compared
    /// without making a `String`.
    @inlinable public func hasText(_ text: StaticString) -> Bool {
        let record = record
        guard record.kind == .scalar else { return false }
        return storage.scalar(record, equals: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// How a scalar was written; nil for a sequence or mapping.
    @inlinable public var scalarStyle: ScalarStyle? {
        let record = record
        return record.kind == .scalar ? ScalarStyle(rawValue: record.style) : nil
    }

    /// Whether a collection was written in flow style (`[a, b]`, `{a: 1}`).
    @inlinable public var isFlow: Bool {
        let record = record
        return record.kind != .scalar && record.style != 0
    }

    /// An explicit tag (`!!str`, `!custom`), if the author wrote one.
    public var tag: String? {
        record.hasTag ? storage.tags[index] : nil
    }

    /// The tag of a null standing in for an alias that could not be resolved.
    @usableFromInline package static let placeholderTag = "tag:storekeeper,2026:unresolved-alias"

    /// Whether this node stands in for an alias that could not be resolved
    /// (already reported by the YAML layer).
    @usableFromInline package var isPlaceholder: Bool {
        record.hasTag && tag == Self.placeholderTag
    }

    /// Whether this is a plain null: an empty value, `~` or `null`.
    @inlinable public var isNull: Bool {
        let record = record
        guard record.kind == .scalar, record.style == ScalarStyle.plain.rawValue else { return false }
        // A tagged value is what its tag says, except the stand-in for a bad alias, which is null.
        if record.hasTag { return isPlaceholder }
        switch record.count {
        case 0: return true
        case 1: return storage.text[Int(record.first)] == UInt8(ascii: "~")
        case 4: return hasText("null") || hasText("Null") || hasText("NULL")
        default: return false
        }
    }

    /// The items of a sequence (empty for other kinds).
    @inlinable public var items: Items { Items(node: self) }

    /// The key-value pairs of a mapping, merge keys resolved (empty for other kinds).
    @inlinable public var pairs: Pairs { Pairs(node: self) }

    /// The `<<` merge keys that brought pairs into this mapping, in the
    /// order of ``pairs`` (empty when none did, and for other kinds): a
    /// problem in a merged pair is at the merged mapping, and this is where
    /// the mapping that received it asked for it.
    public var merges: [YAMLMerge] {
        storage.merges.isEmpty ? [] : storage.merges[index] ?? []
    }

    /// The value for a key of a mapping, if the mapping has it.
    public subscript(key: String) -> YAMLNode? {
        var key = key
        return key.withUTF8 { bytes in
            for pair in pairs where storage.scalar(pair.key.record, equals: UnsafeRawBufferPointer(bytes)) {
                return pair.value
            }
            return nil
        }
    }

    /// A mapping's key and value.
    public struct Pair: Sendable {
        /// The key (always a scalar).
        public let key: YAMLNode
        /// The value.
        public let value: YAMLNode

        @inlinable init(key: YAMLNode, value: YAMLNode) {
            self.key = key
            self.value = value
        }
    }

    /// The items of a sequence node.
    public struct Items: RandomAccessCollection, Sendable {
        @usableFromInline let parent: YAMLNode
        @usableFromInline let first: Int
        /// One past the last position.
        public let endIndex: Int

        @inlinable init(node: YAMLNode) {
            let record = node.record
            parent = node
            if record.kind == .sequence {
                first = Int(record.first)
                endIndex = Int(record.count)
            } else {
                first = 0
                endIndex = 0
            }
        }

        /// Always 0.
        @inlinable public var startIndex: Int { 0 }
        /// The item at a position.
        @inlinable public subscript(position: Int) -> YAMLNode {
            parent.sibling(parent.storage.children[first + position])
        }

        /// The position after `i`.
        @inlinable public func index(after i: Int) -> Int { i + 1 }
        /// The position before `i`.
        @inlinable public func index(before i: Int) -> Int { i - 1 }
    }

    /// The pairs of a mapping node.
    public struct Pairs: RandomAccessCollection, Sendable {
        @usableFromInline let parent: YAMLNode
        @usableFromInline let first: Int
        /// One past the last position.
        public let endIndex: Int

        @inlinable init(node: YAMLNode) {
            let record = node.record
            parent = node
            if record.kind == .mapping {
                first = Int(record.first)
                endIndex = Int(record.count) / 2
            } else {
                first = 0
                endIndex = 0
            }
        }

        /// Always 0.
        @inlinable public var startIndex: Int { 0 }
        /// The pair at a position.
        @inlinable public subscript(position: Int) -> Pair {
            let base = first + position * 2
            let children = parent.storage.children
            return Pair(key: parent.sibling(children[base]), value: parent.sibling(children[base + 1]))
        }

        /// The position after `i`.
        @inlinable public func index(after i: Int) -> Int { i + 1 }
        /// The position before `i`.
        @inlinable public func index(before i: Int) -> Int { i - 1 }
    }
}
