import StorekeeperDiagnostics

/// One parsed YAML document: every node with its position, stored compactly.
///
/// Nodes live in flat arrays (an arena) rather than as objects: a 10,000
/// product catalog has some 300,000 nodes, and one small record each keeps the
/// tree to a few megabytes and its construction free of per-node allocation.
/// Aliases and merge keys share the node they refer to instead of copying it,
/// so the tree is a DAG whose expansion is bounded by `YAMLLimits`.
public final class YAMLDocument: Sendable {
    /// The file the document was read from, as the user named it.
    public let file: String
    let records: [NodeRecord]
    let scalars: [String]
    let children: [Int32]
    let tags: [Int32: String]
    let rootIndex: Int32

    init(file: String, records: [NodeRecord], scalars: [String], children: [Int32], tags: [Int32: String], rootIndex: Int32) {
        self.file = file
        self.records = records
        self.scalars = scalars
        self.children = children
        self.tags = tags
        self.rootIndex = rootIndex
    }

    /// The document's top node, or nil for an empty document.
    public var root: YAMLNode? {
        rootIndex >= 0 ? YAMLNode(document: self, index: rootIndex) : nil
    }

    /// The number of nodes stored (aliases not counted again).
    public var nodeCount: Int { records.count }
}

/// The stored form of one node. 32 bytes.
struct NodeRecord: Sendable {
    var kind: YAMLNode.Kind
    var style: UInt8
    var hasTag: Bool
    var startLine: UInt32
    var startColumn: UInt32
    var endLine: UInt32
    var endColumn: UInt32
    /// Scalar: index into `scalars`. Collection: first index into `children`.
    var first: Int32
    /// Collection: number of entries in `children` (two per mapping pair); -1 while open.
    var count: Int32
}
