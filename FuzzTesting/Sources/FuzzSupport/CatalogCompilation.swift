import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRules
import StorekeeperRuntime

/// Validates and compiles catalogs the way `storekeeper compile` does: the
/// format, then the policy rules with each catalog's `storekeeper.yml`
/// (whose `steps` are declared as plugin steps), and the compiler only when
/// nothing failed.
public struct CatalogCompilation {
    /// The report on the format and the policy rules.
    public var report: ValidationReport
    /// The policies compiled, one for each catalog that compiled.
    public var policies: [CompiledPolicy]

    /// Validates `paths` through `loader`; throws when a path cannot be read.
    public init(_ paths: [String], loader: CatalogLoader) throws(ValidationInputError) {
        let run = try CatalogValidator(loader: loader).run(paths)
        let incomplete = Set(run.report.diagnostics.lazy.filter { $0.severity == .error }.map(\.location.file))
        let rules = try PolicyValidation(reader: loader.reader, maxFileSize: loader.limits.maxFileSize)
            .check(run.catalogs, incompleteFiles: incomplete)
        report = ValidationReport(
            diagnostics: run.report.diagnostics + rules.diagnostics,
            filesChecked: run.report.filesChecked + rules.configurationFiles.count)
        policies = []
        guard !report.fails(strict: false) else { return }
        for (index, catalog) in run.catalogs.enumerated() {
            var plugins = PluginRegistry()
            let steps = rules.extraSteps.indices.contains(index) ? rules.extraSteps[index] : []
            guard (try? plugins.declare(steps)) != nil else { continue }
            // (The CLI passes the plan-rule errors found by the validation; that overload is `package`.)
            if let policy = try? PolicyCompiler(plugins: plugins).compile(catalog) {
                policies.append(policy)
            }
        }
    }
}
