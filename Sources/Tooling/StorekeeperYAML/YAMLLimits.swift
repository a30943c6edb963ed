/// Hard limits on what the YAML loader accepts, so that hostile or broken
/// input is reported quickly and in bounded memory instead of hanging.
///
/// The defaults are generous for any real catalog (Apple allows 10,000
/// products per app; such a catalog is about 4 MiB) and small enough that an
/// alias bomb or a file of nested brackets is stopped in milliseconds.
public struct YAMLLimits: Sendable, Hashable {
    /// The largest file read, in bytes. Default 16 MiB.
    public var maxFileSize: Int
    /// The deepest nesting of mappings and sequences. Default 64 (a catalog needs about 6).
    public var maxDepth: Int
    /// How many nodes aliases and merge keys may add when expanded, counted
    /// as if every alias were copied out. Default 1,000,000.
    public var maxAliasExpansion: Int
    /// The most bytes read for one catalog and its fragments together: the
    /// per-file limit alone lets a catalog spread any size over many files.
    /// Enforced by the catalog loader, not the parser. Default 64 MiB, or
    /// `maxFileSize` when that is larger.
    public var maxTotalSize: Int

    /// The default of ``maxTotalSize``: four files at the default size limit.
    public static let defaultTotalSize = 64 << 20

    /// The largest file size that can be allowed: node positions and offsets
    /// are 32-bit, so a file must stay well under 2 GiB.
    public static let largestFileSize = 1 << 30

    /// Creates limits; every value must be positive, and a file size is at
    /// most `largestFileSize`. Without `maxTotalSize`, the total is
    /// ``defaultTotalSize``, or `maxFileSize` when that is larger (one file
    /// allowed by the per-file limit is then allowed by the total too).
    public init(maxFileSize: Int = 16 << 20, maxDepth: Int = 64, maxAliasExpansion: Int = 1_000_000, maxTotalSize: Int? = nil) {
        self.maxFileSize = min(max(1, maxFileSize), Self.largestFileSize)
        self.maxDepth = max(1, maxDepth)
        self.maxAliasExpansion = max(0, maxAliasExpansion)
        self.maxTotalSize = max(1, maxTotalSize ?? max(Self.defaultTotalSize, self.maxFileSize))
    }

    /// The default limits.
    public static let `default` = YAMLLimits()
}
