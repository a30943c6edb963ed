import ArgumentParser
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperXcodeConfig

/// `storekeeper export CATALOG --format storekit`: the catalog as a file another tool reads.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a catalog in another tool's format: an Xcode StoreKit configuration file (.storekit).",
        discussion: """
            The catalog is checked first, as `storekeeper validate --no-policy` does; on any \
            error nothing is written. With --base, the export starts from an existing .storekit \
            file and changes only what the catalog holds: settings, app policies, internal ids, \
            billing plans, eligibility and unknown keys are kept. Notes on standard error say \
            what was made up, added or left out. docs/storekit.md describes the mapping.

            Exit status: 0 when the file was written, 1 when the catalog or the base file has \
            errors, 2 when the command could not run.
            """
    )

    /// The formats `export` writes.
    enum Format: String, CaseIterable {
        case storekit
    }

    @Argument(help: "The catalog file (or a directory holding one catalog).")
    var catalog: String

    @Option(help: ArgumentHelp("The format to write; required. The only one is storekit.", valueName: "format"))
    var format: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the file (standard output when not given). Written whole or not at all.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("An existing .storekit file to start from: what the catalog cannot hold is kept from it.", valueName: "file"))
    var base: String?

    @Option(help: "Colour in diagnostics: auto, always or never.")
    var color: ColorChoice = .auto

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        let formats = Format.allCases.map(\.rawValue).joined(separator: ", ")
        guard let format else { throw ValidationError("--format is required: name the format to write (the formats are: \(formats))") }
        guard Format(rawValue: format) != nil else {
            throw ValidationError("'\(format)' is not a format export writes\(Suggestion.didYouMean(format, in: Format.allCases.map(\.rawValue))) (the formats are: \(formats))")
        }
    }

    func run() throws {
        // What cannot be written is said before the report, not after it.
        if let output { try OutputFile.check(output) }
        try InputPathName.refuseIfNotUTF8(catalog)
        if let base { try InputPathName.refuseIfNotUTF8(base) }
        let loader = CatalogLoader(reader: FileSystemReader(), limits: limits.limits)
        let run: ValidationRun
        do {
            run = try CatalogValidator(loader: loader).run([catalog])
        } catch {
            throw CommandFailure(message: error.description)
        }
        guard run.catalogs.count <= 1 else {
            throw CommandFailure(message: "\(catalog) holds \(run.catalogs.count) catalogs (\(run.catalogs.map(\.name.value).joined(separator: ", "))); name one catalog file")
        }
        var diagnostics = run.report.diagnostics
        var files = run.report.filesChecked
        var baseConfiguration: StoreKitConfiguration?
        if let base {
            let bytes: [UInt8]
            do {
                bytes = try loader.reader.read(base, limit: loader.limits.maxFileSize)
            } catch {
                throw CommandFailure(message: "--base: \(error.description)")
            }
            let read = StoreKitReader().read(bytes, file: base)
            // What the base file has and the catalog does not is kept, so only its errors matter here.
            diagnostics += read.diagnostics.filter { $0.severity == .error }
            baseConfiguration = read.configuration
            files += 1
        }
        let failed = diagnostics.contains { $0.severity == .error }
        guard !failed, let loaded = run.catalogs.first, base == nil || baseConfiguration != nil else {
            printReport(ValidationReport(diagnostics: diagnostics, filesChecked: files), reader: loader.reader)
            ProcessExit.now(1, keeping: run)
        }
        let export = StoreKitExporter(base: baseConfiguration).export(loaded)
        printReport(ValidationReport(diagnostics: diagnostics + export.diagnostics, filesChecked: files), reader: loader.reader)
        if let output {
            if let input = OutputFile.sameFile(output, asAnyOf: loaded.files) {
                throw CommandFailure(message: "--output \(output) is \(input), which the export was made from; write the file elsewhere")
            }
            try OutputFile.save(export.text, to: output)
        } else {
            StandardOutput.write(export.text, what: "the export")
        }
        ProcessExit.now(0, keeping: (run, export))
    }

    private func printReport(_ report: ValidationReport, reader: any SourceReader) {
        guard !report.diagnostics.isEmpty else { return }
        let colors = color.resolve(isTerminal: StandardError.isTerminal, environment: Environment.current)
        let reporter = TextReporter(colors: colors, sourceLine: SourceLines.provider(for: report, reader: reader, limit: limits.limits.maxFileSize))
        StandardError.write(reporter.render(report))
    }
}
