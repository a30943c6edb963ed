public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperRuntime
public import StorekeeperYAML

/// Loads a policy the way an app or server does at start: from a catalog
/// (YAML, read and compiled here) or from a compiled policy (JSON, which
/// needs no YAML at all), with the app's plugins.
///
/// ```swift
/// var plugins = PluginRegistry()
/// try plugins.register(AuditLogStep())
/// let policy = try PolicyLoader(plugins: plugins).load(contentsOf: "Catalogs/rocket-racer/catalog.yaml")
/// ```
///
/// A catalog with a format error or a plan the compiler refuses is not
/// loaded; the error carries every diagnostic. The other policy rules (a
/// title too long for the App Store, say) are the author's business: run
/// `storekeeper validate` in CI.
public struct PolicyLoader: Sendable {
    /// The plugins steps resolve to.
    public var plugins: PluginRegistry
    /// Reads files (the file system by default).
    public var reader: any SourceReader
    /// YAML limits for catalogs.
    public var limits: YAMLLimits

    /// A loader with these plugins.
    public init(plugins: PluginRegistry = PluginRegistry(), reader: any SourceReader = FileSystemReader(), limits: YAMLLimits = .default) {
        self.plugins = plugins
        self.reader = reader
        self.limits = limits
    }

    /// Loads a compiled policy or compiles a catalog, deciding which once,
    /// as every command does (`PolicyRecognition`: a policy is a JSON object
    /// with a top-level `"format": "storekeeper-policy"` member, misspelt or
    /// cut short, or without a `format` but with a member only a policy
    /// has). A compiled policy may be up to `PolicyDecoder().maxSize` bytes
    /// (`PolicyFormat.maxSize`); a catalog is read within `limits`. A
    /// damaged policy is reported as the policy reader's one error: a JSON
    /// error at its line and column, or a path into the document and what
    /// would be right there.
    public func load(contentsOf path: String) throws(PolicyLoaderError) -> CompiledPolicy {
        let decoder = PolicyDecoder(plugins: plugins)
        let examined: PolicyRecognition.Examined
        do {
            examined = try PolicyRecognition.examine(path, reader: reader, limit: decoder.maxSize)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        do throws(PolicyLoadError) {
            switch examined {
            case .policy(let bytes): return try decoder.decode(bytes)
            case .policyTooLarge(let size): throw decoder.tooLarge(size: size)
            case .other: break
            }
        } catch {
            throw .invalidPolicy(path: path, error)
        }
        let loaded = CatalogLoader(reader: reader, limits: limits).load(path)
        guard !loaded.hasErrors, let catalog = loaded.catalog else {
            throw .invalidCatalog(Diagnostic.normalized(loaded.diagnostics.filter { $0.severity == .error }))
        }
        do {
            return try PolicyCompiler(plugins: plugins).compile(catalog)
        } catch {
            throw .invalidCatalog(error.diagnostics)
        }
    }
}

/// Why a policy could not be loaded.
public enum PolicyLoaderError: Error, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The catalog has errors (format, or plans the compiler refuses).
    case invalidCatalog([Diagnostic])
    /// The compiled policy is not one this version reads.
    case invalidPolicy(path: String, PolicyLoadError)

    /// What went wrong, one line per problem.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .invalidCatalog(let diagnostics):
            PolicyCompilationError(diagnostics: diagnostics).description
        case .invalidPolicy(let path, let error):
            error.located(in: path)
        }
    }
}
