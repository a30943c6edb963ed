import StorekeeperCore
import StorekeeperDiagnostics
public import StorekeeperPlatform

/// One parsed YAML document: every node with its position, stored compactly.
///
/// Nodes live in flat arrays (an arena) rather than as objects: a 10,000
/// product catalog has some 300,000 nodes, and one small record each keeps the
/// tree to a few megabytes and its construction free of per-node allocation.
/// Aliases and merge keys share the node they refer to instead of copying it,
/// so the tree is a DAG whose expansion is bounded by `YAMLLimits`.
///
/// Immutable once built (hence `@unchecked Sendable`: nodes, children and
/// scalar bytes are raw buffers the document owns, written before `init` and
/// never after). Reading raw buffers costs no reference counting, which a
/// decoder visiting every node would otherwise pay on every access.
public final class YAMLDocument: @unchecked Sendable {
    /// The file the document was read from, as the user named it.
    public let file: String
    /// The file's number in `SourceFileTable`, looked up once.
    @usableFromInline let fileID: UInt32
    @usableFromInline let records: UnsafeBufferPointer<NodeRecord>
    /// Every scalar's UTF-8 bytes, one after another: one allocation instead
    /// of one `String` per scalar, owned by the document.
    @usableFromInline let text: UnsafeBufferPointer<UInt8>
    @usableFromInline let children: UnsafeBufferPointer<Int32>
    let tags: [Int32: String]
    /// The `<<` keys that brought pairs into each mapping, by the mapping's node.
    let merges: [Int32: [YAMLMerge]]
    let rootIndex: Int32
    /// False for the short-lived view a streaming parse lends its consumer,
    /// whose buffers still belong to the builder.
    private let ownsBuffers: Bool

    init(
        file: String, records: UnsafeBufferPointer<NodeRecord>, text: UnsafeBufferPointer<UInt8>,
        children: UnsafeBufferPointer<Int32>, tags: [Int32: String], rootIndex: Int32,
        merges: [Int32: [YAMLMerge]] = [:], ownsBuffers: Bool = true
    ) {
        self.file = file
        fileID = SourceFileTable.id(for: file)
        self.records = records
        self.text = text
        self.ownsBuffers = ownsBuffers
        self.children = children
        self.tags = tags
        self.merges = merges
        self.rootIndex = rootIndex
    }

    deinit {
        guard ownsBuffers else { return }
        records.deallocate()
        children.deallocate()
        text.deallocate()
    }

    /// The document's top node, or nil for an empty document.
    public var root: YAMLNode? {
        rootIndex >= 0 ? YAMLNode(document: self, index: rootIndex) : nil
    }

    /// Runs `body` with the root as an unowned node: it and every node reached
    /// from it skip reference counting, which a decoder walking every node
    /// would otherwise pay millions of times. No node may outlive `body`.
    package func withUnownedRoot<Result>(_ body: (YAMLNode?) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) {
            try body(rootIndex >= 0 ? YAMLNode(storage: self, owner: nil, index: rootIndex) : nil)
        }
    }

    /// The number of nodes stored (aliases not counted again).
    public var nodeCount: Int { records.count }

    /// The text of a scalar record.
    @inlinable func string(_ record: NodeRecord) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[Int(record.first)..<Int(record.first) + Int(record.count)]), as: UTF8.self)
    }

    /// Whether a scalar record's text is exactly `bytes`.
    @inlinable func scalar(_ record: NodeRecord, equals bytes: UnsafeRawBufferPointer) -> Bool {
        guard Int(record.count) == bytes.count else { return false }
        guard bytes.count > 0, let base = text.baseAddress, let other = bytes.baseAddress else { return true }
        return memcmp(base + Int(record.first), other, bytes.count) == 0
    }
}

/// The stored form of one node: 28 bytes.
@usableFromInline struct NodeRecord: Sendable, BitwiseCopyable {
    @usableFromInline var kind: YAMLNode.Kind
    @usableFromInline var style: UInt8
    @usableFromInline var hasTag: Bool
    @usableFromInline var startLine: UInt32
    @usableFromInline var startColumn: UInt32
    @usableFromInline var endLine: UInt32
    @usableFromInline var endColumn: UInt32
    /// Scalar: byte offset into `text`. Collection: first index into `children`.
    @usableFromInline var first: Int32
    /// Scalar: byte length. Collection: number of entries in `children` (two
    /// per mapping pair); -1 while open.
    @usableFromInline var count: Int32
    @usableFromInline init(
        kind: YAMLNode.Kind, style: UInt8, hasTag: Bool, startLine: UInt32, startColumn: UInt32,
        endLine: UInt32, endColumn: UInt32, first: Int32, count: Int32
    ) {
        self.kind = kind
        self.style = style
        self.hasTag = hasTag
        self.startLine = startLine
        self.startColumn = startColumn
        self.endLine = endLine
        self.endColumn = endColumn
        self.first = first
        self.count = count
    }
}
