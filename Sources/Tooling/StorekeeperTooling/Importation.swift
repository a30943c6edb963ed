public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperRules
public import StorekeeperXcodeConfig

/// What `import` made of an Xcode StoreKit configuration file: the catalog,
/// and a report located in the .storekit file.
public struct Importation: Sendable {
    /// Every diagnostic: the file's, the import's (what was filled in or
    /// left out), then the policy rules' on the catalog made, each moved to
    /// the place in the .storekit file the catalog's line came from.
    public var report: ValidationReport
    /// The catalog made; nil when the file has errors (a catalog would only
    /// repeat them).
    public var imported: StoreKitImport?

    /// Whether anything is wrong, so that no catalog is to be written.
    public var hasErrors: Bool { report.errorCount > 0 || imported == nil }
}

extension Workflows {
    /// The largest .storekit file `import` reads.
    public static let maxStoreKitFileSize = 16 << 20

    /// Imports an Xcode StoreKit configuration file into a catalog, then
    /// checks that catalog as ``validate(_:options:skippingEmptyFolders:)``
    /// would: the format while importing, then the policy rules on the text
    /// as it will be written.
    ///
    /// - Parameters:
    ///   - file: the .storekit file.
    ///   - catalogName: the catalog's name (made from the file's name when nil).
    ///   - bundleID: the app's bundle id (a placeholder when nil).
    ///   - catalogPath: where the catalog will be written, for the
    ///     catalog's comments and the rules' view of it (nil: standard output).
    ///   - reader: reads the file (the file system by default).
    /// - Throws: Why the import could not run (exit status 2): the file cannot be read.
    public static func importStoreKit(
        _ file: String, catalogName: String? = nil, bundleID: String? = nil, catalogPath: String? = nil,
        reader: any SourceReader = FileSystemReader()
    ) throws(WorkflowFailure) -> Importation {
        let bytes: [UInt8]
        do {
            bytes = try reader.read(file, limit: maxStoreKitFileSize)
        } catch {
            throw WorkflowFailure(error.description)
        }
        let read = StoreKitReader().read(bytes, file: file)
        var diagnostics = read.diagnostics
        var imported: StoreKitImport?
        // A file with errors is not imported: the catalog would only repeat them.
        if !read.hasErrors, let configuration = read.configuration {
            let result = StoreKitImporter(catalogName: catalogName, bundleID: bundleID, catalogPath: catalogPath).importCatalog(from: configuration)
            diagnostics += result.diagnostics
            if !result.hasErrors, let catalog = result.catalog {
                // The catalog as it will be written, not as it was built: the rules read its text.
                let memory = InMemorySourceReader([result.sourceMap.catalogPath: result.text])
                do {
                    let policy = try PolicyValidation(reader: memory, maxFileSize: maxStoreKitFileSize).check([catalog])
                    diagnostics += policy.diagnostics.map(result.sourceMap.translate)
                } catch {
                    throw WorkflowFailure(error.description)
                }
            }
            imported = result
        }
        return Importation(report: ValidationReport(diagnostics: diagnostics, filesChecked: 1), imported: imported)
    }
}
