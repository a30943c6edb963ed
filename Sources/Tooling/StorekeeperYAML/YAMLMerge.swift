public import StorekeeperDiagnostics

/// Pairs that a `<<` merge key brought into a mapping. They are the merged
/// mapping's own nodes, so their places are where that mapping was written;
/// this says where the `<<` that brought them is, so that a problem in one
/// of them can be traced to each mapping it was merged into.
public struct YAMLMerge: Sendable, Hashable {
    /// The `<<` key.
    public var site: SourceRange
    /// The positions, in the receiving mapping's ``YAMLNode/pairs``, of the
    /// pairs it brought (those no key written in the mapping overrides).
    public var pairs: Range<Int>

    /// Creates a record of a merge.
    public init(site: SourceRange, pairs: Range<Int>) {
        self.site = site
        self.pairs = pairs
    }
}
