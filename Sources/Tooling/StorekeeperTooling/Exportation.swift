import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperXcodeConfig
import StorekeeperYAML

/// What `export` made of a catalog: an Xcode StoreKit configuration file,
/// and the report of the catalog, the base file and the export.
public struct Exportation {
    /// The catalog's diagnostics and the base file's errors; when the export
    /// was made, its notes too (what was made up, added or left out).
    public var report: ValidationReport
    /// The .storekit file made; nil when the catalog or the base file has errors.
    public var export: StoreKitExport?
    /// The catalog's files (with its fragments): the export must not be
    /// written over any of them.
    public var inputs: [String]
    /// The validation the export came from.
    public var validation: Validation
}

extension Workflows {
    /// Checks one catalog's format, as ``validate(_:options:skippingEmptyFolders:)``
    /// does without the policy rules (`validate --no-policy`), then, when it
    /// has no error, exports it as a .storekit file.
    ///
    /// - Parameters:
    ///   - path: a catalog file, or a folder holding one catalog.
    ///   - base: an existing .storekit file to start from: what the catalog
    ///     has no place for is kept from it. Only its errors are reported.
    ///   - options: the reader and limits; the policy rules never run, so
    ///     `configuration` and `checksPolicy` are not used.
    /// - Throws: Why the export could not run (exit status 2): a path that
    ///   cannot be read, a folder with several catalogs, a base file that
    ///   cannot be read (its message starts with `--base: `).
    public static func exportStoreKit(_ path: String, base: String? = nil, options: WorkflowOptions = WorkflowOptions()) throws(WorkflowFailure) -> Exportation {
        var formatOnly = options
        formatOnly.checksPolicy = false
        let validation = try validate([path], options: formatOnly)
        let found = try validation.onlyCatalog(named: path)
        var diagnostics = validation.report.diagnostics
        var files = validation.report.filesChecked
        var baseConfiguration: StoreKitConfiguration?
        if let base {
            let bytes: [UInt8]
            do {
                bytes = try options.reader.read(base, limit: options.limits.maxFileSize)
            } catch {
                throw WorkflowFailure("--base: \(error.description)")
            }
            let read = StoreKitReader().read(bytes, file: base)
            // What the base file has and the catalog does not is kept, so only its errors matter here.
            diagnostics += read.diagnostics.filter { $0.severity == .error }
            baseConfiguration = read.configuration
            files += 1
        }
        let inputs = found?.files ?? []
        let failed = diagnostics.contains { $0.severity == .error }
        guard !failed, let catalog = found, base == nil || baseConfiguration != nil else {
            return Exportation(report: ValidationReport(diagnostics: diagnostics, filesChecked: files), export: nil, inputs: inputs, validation: validation)
        }
        let export = StoreKitExporter(base: baseConfiguration).export(catalog)
        let report = ValidationReport(diagnostics: diagnostics + export.diagnostics, filesChecked: files)
        return Exportation(report: report, export: export, inputs: inputs, validation: validation)
    }
}
