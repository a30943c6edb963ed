public import ArgumentParser
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
package import StorekeeperDiagnostics
import StorekeeperRules
import StorekeeperRuntime
import StorekeeperTooling

/// `storekeeper validate PATH...`: checks catalogs and reports every problem.
package struct Validate: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Check catalogs and report every problem with its file, line and column.",
        discussion: """
            PATH is a catalog file or a directory. In a directory, every *.yaml and *.yml file \
            with a top-level `catalog` key is validated; fragments are checked through the \
            catalogs that include them. A compiled policy is not a catalog: naming one stops \
            with exit status 2 (`storekeeper explain` reads policies).

            After the format, the policy rules run (`storekeeper rules` lists them), configured \
            by the storekeeper.yml found beside each catalog or in a folder above it (up to the \
            repository root), or by --config.

            Exit status: 0 when no error was found, 1 when any was (or, with --strict, any \
            warning), 2 when the command could not run.
            """
    )

    /// Output formats.
    package enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif, github
    }

    @Argument(help: "Catalog files or directories to validate.")
    package var paths: [String]

    @Option(help: "Output format: text, json, sarif (SARIF 2.1.0, for code scanning) or github (workflow commands, for annotations).")
    package var format: Format = .text

    @Option(name: .customLong("config"), help: ArgumentHelp("The rule configuration to use instead of the storekeeper.yml found beside each catalog.", valueName: "path"))
    package var configuration: String?

    @Option(help: "Colour in text output: auto (on a terminal, unless NO_COLOR is set), always or never.")
    package var color: ColorChoice = .auto

    @Flag(help: "Fail (exit 1) on warnings too.")
    package var strict = false

    @Flag(help: "Check the format only: skip the policy rules, their configuration and suppressions.")
    package var noPolicy = false

    @OptionGroup var limits: LimitOptions

    /// No paths yet (ArgumentParser fills in what the command line says).
    package init() {}

    package func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one catalog file or directory, like `storekeeper validate Catalogs`") }
    }

    package func run() throws {
        for path in paths { try InputPathName.refuseIfNotUTF8(path) }
        let options = WorkflowOptions(limits: limits.limits, configuration: configuration, checksPolicy: !noPolicy)
        try refuseCompiledPolicies(options.reader, maxFileSize: options.limits.maxFileSize)
        let validation: Validation
        do {
            validation = try Workflows.validate(paths, options: options)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let report = validation.report
        ReportOutput.write(report, format: format, color: color, rules: DiagnosticIndex.all, reader: options.reader, limit: options.limits.maxFileSize)
        // Exit here, with everything loaded still held: freeing a large
        // catalog's every string and array would only delay the exit
        // (compilers skip it the same way).
        ProcessExit.now(report.fails(strict: strict) ? 1 : 0, keeping: validation)
    }

    /// Stops the run (exit status 2) at a named file that is a compiled
    /// policy, decided by `PolicyRecognition` as `compile` and `explain`
    /// decide it: read as a catalog, its every member would be a catalog
    /// error, none of them the point.
    private func refuseCompiledPolicies(_ reader: any SourceReader, maxFileSize: Int) throws(CommandFailure) {
        for path in paths where reader.kind(of: path) == .file {
            // Read errors, and catalogs, are the validator's to report.
            guard let examined = try? PolicyRecognition.examine(path, reader: reader, limit: max(PolicyDecoder().maxSize, maxFileSize)) else { continue }
            let isPolicy = if case .other = examined { false } else { true }
            if isPolicy {
                throw CommandFailure(message: "\(path) is a compiled policy, not a catalog: validate checks catalogs, so validate the catalog it was compiled from; to check the policy itself, run `storekeeper explain \(path)`")
            }
        }
    }
}

extension ColorChoice: ExpressibleByArgument {}
