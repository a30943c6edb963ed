import ArgumentParser
import StorekeeperCommandLine
import StorekeeperTooling

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
        let options = WorkflowOptions(limits: limits.limits)
        let exportation: Exportation
        do {
            exportation = try Workflows.exportStoreKit(catalog, base: base, options: options)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let report = exportation.report
        if !report.diagnostics.isEmpty {
            ReportOutput.writeToStandardError(report, color: color, reader: options.reader, limit: options.limits.maxFileSize)
        }
        guard let export = exportation.export else { ProcessExit.now(1, keeping: exportation) }
        if let output {
            if let input = OutputFile.sameFile(output, asAnyOf: exportation.inputs) {
                throw CommandFailure(message: "--output \(output) is \(input), which the export was made from; write the file elsewhere")
            }
            try OutputFile.save(export.text, to: output)
        } else {
            StandardOutput.write(export.text, what: "the export")
        }
        ProcessExit.now(0, keeping: exportation)
    }
}
