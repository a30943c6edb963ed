import ArgumentParser
import StorekeeperCommandLine
import StorekeeperTooling

/// `storekeeper import FILE.storekit`: a catalog from an Xcode StoreKit configuration file.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a catalog (YAML) from an Xcode StoreKit configuration file (.storekit).",
        discussion: """
            The catalog is written to standard output, or to --output. What the file does not \
            hold (delivery, persistence, restore, a bundle id) is filled with the In-App Purchase \
            guide's defaults and listed in the catalog's comments and as notes; what the catalog \
            has no place for is reported, and `storekeeper export --base FILE.storekit` keeps it. \
            The catalog is read back and checked as `storekeeper validate` would before it is \
            written. The report goes to standard error, located in the .storekit file. \
            docs/storekit.md describes the mapping.

            Exit status: 0 when the catalog was written (notes and warnings are fine), 1 when \
            the file has errors (nothing is written), 2 when the command could not run.
            """
    )

    /// Report formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The StoreKit configuration file to import.")
    var file: String

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the catalog (standard output when not given). Written whole or not at all.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("The catalog's name: lower-case letters, digits and '-' (default: made from the file's name).", valueName: "name"))
    var name: String?

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The app's bundle id (default: a placeholder, com.example.NAME).", valueName: "id"))
    var bundleID: String?

    @Option(help: "Report format on standard error: text or json.")
    var format: Format = .text

    @Option(help: "Colour in the text report: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    func validate() throws {
        if let name, let problem = NamePatterns.catalogName(name) {
            throw ValidationError("--name '\(name)' \(problem)")
        }
        if let bundleID, let problem = NamePatterns.bundleID(bundleID) {
            throw ValidationError("--bundle-id '\(bundleID)' \(problem)")
        }
    }

    func run() throws {
        try InputPathName.refuseIfNotUTF8(file)
        // What cannot be written is said before the report, not after it.
        if let output {
            if let input = OutputFile.sameFile(output, asAnyOf: [file]) {
                throw CommandFailure(message: "--output \(output) is \(input), the file being imported; write the catalog elsewhere")
            }
            try OutputFile.check(output)
        }
        let reader = FileSystemReader()
        let importation: Importation
        do {
            importation = try Workflows.importStoreKit(file, catalogName: name, bundleID: bundleID, catalogPath: output, reader: reader)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let report = importation.report
        switch format {
        case .json: StandardError.write(JSONReporter().render(report))
        case .text: ReportOutput.writeToStandardError(report, color: color, reader: reader, limit: Workflows.maxStoreKitFileSize)
        }
        guard !importation.hasErrors, let imported = importation.imported else { ProcessExit.now(1, keeping: report) }
        if let output {
            try OutputFile.save(imported.text, to: output)
        } else {
            StandardOutput.write(imported.text, what: "the catalog")
        }
        ProcessExit.now(0, keeping: imported)
    }
}
