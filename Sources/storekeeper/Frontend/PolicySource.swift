import StorekeeperCatalog
import StorekeeperDiagnostics
import StorekeeperEngine
import StorekeeperRules

/// Gets a compiled policy for `compile` and `explain`: from a catalog,
/// validated as `storekeeper validate` would (configuration and
/// suppressions included) and then compiled, or from a compiled policy's
/// JSON. Problems are printed to standard error; a catalog with errors
/// stops the command with exit status 1.
struct PolicySource {
    var path: String
    var configuration: String?
    var limits: LimitOptions
    var color: ColorChoice

    /// What was loaded: the policy, and the files read to make it (a
    /// command must not write over them).
    struct Loaded {
        var policy: CompiledPolicy
        var inputs: [String]
        var wasCompiled: Bool
    }

    /// A compiled policy's JSON, parsed, when the path names one
    /// (`PolicyDecoder.compiledPolicy(in:)`); anything else is a catalog.
    func compiledPolicy(_ reader: any SourceReader) -> JSONValue? {
        let decoder = PolicyDecoder()
        guard reader.kind(of: path) == .file, let bytes = try? reader.read(path, limit: decoder.maxSize) else { return nil }
        return decoder.compiledPolicy(in: bytes)
    }

    /// The policy, or the process ends (1: the catalog has errors, 2: it cannot be read).
    func load() throws(CommandFailure) -> Loaded {
        let loader = CatalogLoader(reader: FileSystemReader(), limits: limits.limits)
        if let value = compiledPolicy(loader.reader) {
            do {
                return Loaded(policy: try PolicyDecoder(declaresUnknownSteps: true).decode(value: value), inputs: [path], wasCompiled: true)
            } catch {
                StandardError.write("\(path): error: \(error.description)\n")
                ProcessExit.now(1, keeping: value)
            }
        }
        let run: ValidationRun
        let policy: PolicyValidation.Result
        do {
            run = try CatalogValidator(loader: loader).run([path])
            policy = try PolicyValidation(reader: loader.reader, configurationPath: configuration, maxFileSize: loader.limits.maxFileSize)
                .check(run.catalogs, incompleteFiles: Set(run.report.diagnostics.lazy.filter { $0.severity == .error }.map(\.location.file)))
        } catch {
            throw CommandFailure(message: error.description)
        }
        guard run.catalogs.count <= 1 else {
            throw CommandFailure(message: "\(path) holds \(run.catalogs.count) catalogs (\(run.catalogs.map(\.name.value).joined(separator: ", "))); name one catalog file")
        }
        let report = ValidationReport(diagnostics: run.report.diagnostics + policy.diagnostics,
                                      filesChecked: run.report.filesChecked + policy.configurationFiles.count)
        if !report.diagnostics.isEmpty { printDiagnostics(report, reader: loader.reader, limit: loader.limits.maxFileSize) }
        guard !report.fails(strict: false), let catalog = run.catalogs.first else { ProcessExit.now(1, keeping: run) }

        var plugins = PluginRegistry()
        do {
            try plugins.declare(policy.extraSteps.first ?? [])
        } catch {
            throw CommandFailure(message: "storekeeper.yml: \(error.description)")
        }
        do {
            let compiled = try PolicyCompiler(plugins: plugins).compile(catalog, planRuleErrors: policy.planRuleErrors.first)
            return Loaded(policy: compiled, inputs: catalog.files + policy.configurationFiles, wasCompiled: false)
        } catch {
            printDiagnostics(ValidationReport(diagnostics: error.diagnostics, filesChecked: run.report.filesChecked),
                             reader: loader.reader, limit: loader.limits.maxFileSize)
            ProcessExit.now(1, keeping: run)
        }
    }

    private func printDiagnostics(_ report: ValidationReport, reader: any SourceReader, limit: Int) {
        let colors = color.resolve(isTerminal: StandardError.isTerminal, environment: Environment.current)
        let reporter = TextReporter(colors: colors, sourceLine: SourceLines.provider(for: report, reader: reader, limit: limit))
        StandardError.write(reporter.render(report))
    }
}
