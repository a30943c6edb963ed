public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperYAML

/// What every workflow reads with: the files, the limits that bound them,
/// and the rule configuration.
public struct WorkflowOptions: Sendable {
    /// Reads files (the file system by default).
    public var reader: any SourceReader
    /// Bounds on each file and on a catalog with its fragments.
    public var limits: YAMLLimits
    /// A storekeeper.yml to use instead of the one found beside each catalog.
    public var configuration: String?
    /// Whether the policy rules run (`--no-policy` turns them off).
    public var checksPolicy: Bool

    /// Options; the defaults are what `storekeeper validate` uses with no flag.
    public init(reader: any SourceReader = FileSystemReader(), limits: YAMLLimits = .default, configuration: String? = nil, checksPolicy: Bool = true) {
        self.reader = reader
        self.limits = limits
        self.configuration = configuration
        self.checksPolicy = checksPolicy
    }

    /// The loader these options make.
    var loader: CatalogLoader { CatalogLoader(reader: reader, limits: limits) }
}
