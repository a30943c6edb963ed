import StorekeeperTooling

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

        let validation: Validation
        do {
            validation = try Workflows.validate(paths, options: WorkflowOptions(reader: reader, limits: loader.limits), skippingEmptyFolders: true)
        } catch {
            throw Failure(message: error.message)
        }
        if arguments.emitsPolicy {
            return try writePolicy(validation, before: diagnostics, filesChecked: filesChecked)
        }
        let run = validation.run
        diagnostics += validation.report.diagnostics
        filesChecked += validation.report.filesChecked
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
            let inputs = validation.inputs + (arguments.settings.map { [$0] } ?? [])
            try GeneratedFile.save(source, to: arguments.output, reader: reader, inputs: inputs)
        } catch {
            throw Failure(message: error.message)
        }
        return Outcome(report: report, status: 0)
    }

    /// `--policy`: compiles the one catalog validated and writes its policy
    /// (compact JSON), only when it changed.
    private func writePolicy(_ validation: Validation, before settingsDiagnostics: [Diagnostic], filesChecked settingsFiles: Int) throws(Failure) -> Outcome {
        let compilation: Compilation
        do {
            compilation = try Workflows.compile(validation, named: arguments.paths.joined(separator: ", "))
        } catch {
            throw Failure(message: error.message)
        }
        let report = ValidationReport(diagnostics: settingsDiagnostics + compilation.diagnostics,
                                      filesChecked: settingsFiles + compilation.report.filesChecked)
        guard let policy = compilation.policy, !Self.hasErrors(report.diagnostics) else { return Outcome(report: report, status: 1) }
        let encoder = PolicyEncoder(indentation: nil)
        let json: String
        do {
            json = try encoder.checkedSerialize(encoder.document(policy))
        } catch {
            throw Failure(message: "\(error.description); nothing was written")
        }
        do {
            try GeneratedFile.save(json, to: arguments.output, reader: reader, inputs: validation.inputs + (arguments.settings.map { [$0] } ?? []), what: "policy")
        } catch {
            throw Failure(message: error.message)
        }
        return Outcome(report: report, status: 0)
    }

    private static func hasErrors(_ diagnostics: [Diagnostic]) -> Bool {
        diagnostics.contains { $0.severity == .error }
    }
}
