import StorekeeperCatalog
import StorekeeperCodegen
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRules

/// One run of `storekeeper-codegen`: read the settings, validate the
/// catalogs exactly as `storekeeper validate` does (the same library calls:
/// `CatalogValidator`, then `PolicyValidation` with each catalog's
/// storekeeper.yml), generate, write.
struct CodegenCommand {
    var arguments: CodegenArguments
    var reader: any SourceReader = FileSystemReader()

    /// Why the run could not happen (exit status 2).
    struct Failure: Error {
        var message: String
    }

    /// What the run found: every diagnostic, and the status to exit with.
    struct Outcome {
        var report: ValidationReport
        var status: Int32
    }

    func run() throws(Failure) -> Outcome {
        let loader = CatalogLoader(reader: reader)
        var options = CodegenOptions(sourceRoot: arguments.sourceRoot)
        var paths = arguments.paths
        var diagnostics: [Diagnostic] = []
        var filesChecked = 0

        if let settingsPath = arguments.settings {
            let bytes: [UInt8]
            do {
                bytes = try reader.read(settingsPath, limit: CodegenSettings.maxSize)
            } catch {
                throw Failure(message: "cannot read the settings \(settingsPath): \(error.reason)")
            }
            let (settings, problems) = CodegenSettings.decode(bytes, path: settingsPath)
            diagnostics += problems
            filesChecked += 1
            options.access = settings.access ?? options.access
            options.typeAliases = settings.typeAliases ?? options.typeAliases
            paths += settings.catalogs.map { SourcePath.resolve($0, from: settingsPath) }
        }
        options.access = arguments.access ?? options.access
        if arguments.noTypeAliases { options.typeAliases = false }
        guard !Self.hasErrors(diagnostics) else {
            return Outcome(report: ValidationReport(diagnostics: diagnostics, filesChecked: filesChecked), status: 1)
        }
        guard !paths.isEmpty else {
            throw Failure(message: "\(arguments.settings ?? "the settings") names no catalog, and no PATH was given")
        }

        let run: ValidationRun
        let policy: PolicyValidation.Result
        do {
            run = try Self.validate(paths, with: CatalogValidator(loader: loader))
            policy = try PolicyValidation(reader: loader.reader, maxFileSize: loader.limits.maxFileSize)
                .check(run.catalogs, incompleteFiles: Set(run.report.diagnostics.lazy.filter { $0.severity == .error }.map(\.location.file)))
        } catch {
            throw Failure(message: error.description)
        }
        diagnostics += run.report.diagnostics + policy.diagnostics
        filesChecked += run.report.filesChecked + policy.configurationFiles.count
        guard !Self.hasErrors(diagnostics) else {
            return Outcome(report: ValidationReport(diagnostics: diagnostics, filesChecked: filesChecked), status: 1)
        }

        let generated = SwiftGenerator(options: options).generate(run.catalogs)
        diagnostics += generated.diagnostics
        let report = ValidationReport(diagnostics: diagnostics, filesChecked: filesChecked)
        guard let source = generated.source, !Self.hasErrors(diagnostics) else {
            return Outcome(report: report, status: 1)
        }
        do {
            let inputs = run.catalogs.flatMap(\.files) + policy.configurationFiles + (arguments.settings.map { [$0] } ?? [])
            try GeneratedFile.save(source, to: arguments.output, reader: reader, inputs: inputs)
        } catch {
            throw Failure(message: error.message)
        }
        return Outcome(report: report, status: 0)
    }

    /// Validates `paths`. A directory with no catalog is left out when other
    /// paths give catalogs: the plugin always names the target's directory,
    /// whose catalogs may all be elsewhere (named by the settings file).
    static func validate(_ paths: [String], with validator: CatalogValidator) throws(ValidationInputError) -> ValidationRun {
        var paths = paths
        while true {
            do {
                return try validator.run(paths)
            } catch .noCatalogs(let directory) where paths.count > 1 {
                paths.removeAll { $0 == directory }
            }
        }
    }

    private static func hasErrors(_ diagnostics: [Diagnostic]) -> Bool {
        diagnostics.contains { $0.severity == .error }
    }
}
