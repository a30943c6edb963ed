public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperRules
import StorekeeperYAML

/// What `validate` found: every diagnostic of the format and of the policy
/// rules, and the catalogs it decoded (for the workflows that go on).
public struct Validation {
    /// Every diagnostic, format first, then the policy rules'.
    public var report: ValidationReport
    /// The catalogs and how they were read.
    public var run: ValidationRun
    /// The policy rules' result: configuration files read, each catalog's
    /// plugin steps, the plan errors a compiler must refuse.
    public var policy: PolicyValidation.Result

    /// Whether the catalogs may go on to be compiled or generated from: no error.
    public var hasErrors: Bool { report.fails(strict: false) }

    /// Every file read: catalogs, fragments and configurations. A command
    /// must not write over any of them.
    public var inputs: [String] { run.catalogs.flatMap(\.files) + policy.configurationFiles }

    /// The one catalog found, or nil when none could be loaded; a failure
    /// when the paths held several (compile and export take one catalog).
    ///
    /// - Parameter name: how the paths validated are named in the failure.
    func onlyCatalog(named name: String) throws(WorkflowFailure) -> Catalog? {
        let catalogs = run.catalogs
        guard catalogs.count <= 1 else {
            throw WorkflowFailure("\(name) holds \(catalogs.count) catalogs (\(catalogs.map(\.name.value).joined(separator: ", "))); name one catalog file")
        }
        return catalogs.first
    }
}

/// The author's workflows, one function each, so that the CLI, the codegen
/// tool and the plugins do exactly the same thing.
public enum Workflows {
    /// Validates catalogs: the format (with includes), then the policy rules
    /// as each catalog's storekeeper.yml (or `options.configuration`)
    /// configures them, suppressions applied.
    ///
    /// - Parameters:
    ///   - paths: catalog files or folders (every catalog in a folder).
    ///   - skippingEmptyFolders: leave out a folder with no catalog when
    ///     other paths give catalogs (the build plugins name a target's folder,
    ///     whose catalogs may all be named elsewhere).
    /// - Throws: Why validation could not run (exit status 2).
    public static func validate(_ paths: [String], options: WorkflowOptions = WorkflowOptions(), skippingEmptyFolders: Bool = false) throws(WorkflowFailure) -> Validation {
        let loader = options.loader
        let validator = CatalogValidator(loader: loader)
        let run: ValidationRun
        let policy: PolicyValidation.Result
        do {
            run = try skippingEmptyFolders ? validateSkippingEmptyFolders(paths, with: validator) : validator.run(paths)
            policy = options.checksPolicy
                ? try PolicyValidation(reader: loader.reader, configurationPath: options.configuration, maxFileSize: loader.limits.maxFileSize)
                    .check(run.catalogs, incompleteFiles: Set(run.report.diagnostics.lazy.filter { $0.severity == .error }.map(\.location.file)))
                : PolicyValidation.Result(diagnostics: [], configurationFiles: [])
        } catch {
            throw WorkflowFailure(error.description)
        }
        let report = ValidationReport(
            diagnostics: run.report.diagnostics + policy.diagnostics,
            filesChecked: run.report.filesChecked + policy.configurationFiles.count)
        return Validation(report: report, run: run, policy: policy)
    }

    private static func validateSkippingEmptyFolders(_ paths: [String], with validator: CatalogValidator) throws(ValidationInputError) -> ValidationRun {
        var paths = paths
        while true {
            do {
                return try validator.run(paths)
            } catch .noCatalogs(let directory) where paths.count > 1 {
                paths.removeAll { $0 == directory }
            }
        }
    }
}
