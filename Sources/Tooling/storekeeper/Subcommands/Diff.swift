import ArgumentParser
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperDiff
import StorekeeperRules

/// `storekeeper diff OLD NEW`: what a catalog change does to people who already bought.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report what a catalog change does to people who already bought.",
        discussion: """
            OLD and NEW are two catalog files, or two directories whose catalogs are paired by their \
            `catalog` name. OLD may be read from a git revision: write it as REV:PATH \
            (main:Catalogs/game.yaml, with PATH relative to the current directory), or give \
            --old-revision REV, with one PATH for both sides or with OLD and NEW. A path that exists \
            is always read as a path, even when it has a colon.

            Each finding is located in NEW at the changed value, with the old value in a note; what \
            NEW no longer has is located in OLD. `storekeeper diff --list-checks` lists the checks; \
            docs/diff.md explains each.

            Exit status: 0 when no error was found, 1 when any was (or, with --strict, any warning), \
            or when OLD or NEW does not load; 2 when the command could not run (a path missing, git \
            missing, an unknown revision).
            """
    )

    @Argument(help: ArgumentHelp("OLD and NEW: catalog files or directories (OLD may be REV:PATH); with --old-revision, one PATH for both.", valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("old-revision"), help: ArgumentHelp("Read OLD (or the one PATH) as it is at this git revision: a branch, tag or commit.", valueName: "revision"))
    var oldRevision: String?

    @Option(help: "Output format: text, json, sarif (SARIF 2.1.0, for code scanning) or github (workflow commands, for annotations).")
    var format: Validate.Format = .text

    @Option(help: "Colour in text output: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Flag(name: .customLong("list-checks"), help: "List the checks (id, severity, what each checks) and exit.")
    var listChecks = false

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if listChecks { return }
        if oldRevision == nil {
            guard paths.count == 2 else {
                throw ValidationError("name OLD and NEW, like `storekeeper diff old/catalog.yaml catalog.yaml` or `storekeeper diff main:Catalogs Catalogs`")
            }
        } else {
            guard (1...2).contains(paths.count) else {
                throw ValidationError("with --old-revision, name one PATH (read at the revision and as it is now) or OLD and NEW")
            }
        }
    }

    func run() throws {
        if listChecks {
            StandardOutput.write(DiffDocumentation.list(), what: "the list of checks")
            return
        }
        if paths.count == 1 {
            try InputPathName.refuseIfNotUTF8(paths[0])
        } else {
            try InputPathName.refuseIfNotUTF8(paths[0], side: "OLD: ")
            try InputPathName.refuseIfNotUTF8(paths[paths.count - 1], side: "NEW: ")
        }
        let files = FileSystemReader()
        let old = try oldSide(files: files)
        let newPath = paths[paths.count - 1]
        let oldKind = old.reader.kind(of: old.path), newKind = files.kind(of: newPath)
        switch (oldKind, newKind) {
        case (.file, .file), (.directory, .directory): break
        case (.missing, _):
            if let git = old.reader as? GitRevisionReader {
                throw CommandFailure(message: "OLD: no such file or directory at \(git.revision): \(old.path)")
            }
            throw CommandFailure(message: "OLD: no such file or directory: \(old.path)")
        case (_, .missing): throw CommandFailure(message: "NEW: no such file or directory: \(newPath)")
        default:
            throw CommandFailure(message: "OLD (\(old.path)) and NEW (\(newPath)) must be two catalog files or two directories")
        }
        let oldRun = try load(old.path, reader: old.reader, side: "OLD")
        let newRun = try load(newPath, reader: files, side: "NEW")
        let filesChecked = oldRun.report.filesChecked + newRun.report.filesChecked

        // A catalog that does not load cannot be compared: its broken products would read as removed.
        let loadErrors = Self.errors(of: oldRun, side: "old") + Self.errors(of: newRun, side: "new")
        let diagnostics: [Diagnostic]
        if !loadErrors.isEmpty {
            diagnostics = loadErrors
        } else if oldKind == .file {
            guard let oldCatalog = oldRun.catalogs.first, let newCatalog = newRun.catalogs.first else {
                throw CommandFailure(message: "no catalog could be read from \(oldRun.catalogs.isEmpty ? old.path : newPath)")
            }
            diagnostics = CatalogDiff().compare(old: oldCatalog, new: newCatalog)
        } else {
            let pairing = CatalogPairing(old: oldRun.catalogs, new: newRun.catalogs)
            if let clash = pairing.ambiguous.first {
                throw CommandFailure(message: "catalogs are paired by name, and '\(clash.name)' names more than one (\(clash.files.joined(separator: ", "))); give each name once, or compare the files one by one")
            }
            diagnostics = CatalogDiff().compare(old: oldRun.catalogs, new: newRun.catalogs)
        }
        let report = ValidationReport(diagnostics: diagnostics, filesChecked: filesChecked)
        ReportOutput.write(report, format: format, color: color, rules: DiagnosticIndex.all + CatalogDiff.metadata, reader: old.reader, limit: limits.limits.maxFileSize)
        ProcessExit.now(!loadErrors.isEmpty || report.fails(strict: strict) ? 1 : 0, keeping: (oldRun, newRun))
    }

    /// Where OLD is read from: the file system, or a git revision (`--old-revision`,
    /// or `REV:PATH` when no such path exists). Its reader falls back to the file
    /// system, so it also serves the text reporter's source lines of both sides.
    private func oldSide(files: FileSystemReader) throws -> (path: String, reader: any SourceReader) {
        do {
            if let oldRevision {
                let reader = try GitRevisionReader.open(revision: oldRevision, fallback: files)
                return (try reader.path(for: paths[0]), reader)
            }
            let argument = paths[0]
            // A path that exists wins over the REV:PATH reading of it.
            if files.kind(of: argument) != .missing { return (argument, files) }
            guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else {
                throw CommandFailure(message: "OLD: no such file or directory: \(argument) (to read it from git, write REV:PATH, like main:\(argument))")
            }
            let path = String(argument[argument.index(after: colon)...])
            guard !path.isEmpty else {
                throw CommandFailure(message: "OLD: name a path after the revision, like \(argument)Catalogs")
            }
            let reader = try GitRevisionReader.open(revision: String(argument[..<colon]), fallback: files)
            return (try reader.path(for: path), reader)
        } catch let error as GitRevisionError {
            throw CommandFailure(message: "OLD: \(error.description)")
        }
    }

    /// Loads every catalog at a path, as validate does (includes followed).
    private func load(_ path: String, reader: any SourceReader, side: String) throws -> ValidationRun {
        do {
            return try CatalogValidator(loader: CatalogLoader(reader: reader, limits: limits.limits)).run([path])
        } catch {
            throw CommandFailure(message: "\(side): \(error.description)")
        }
    }

    /// The errors of one side's loading, each saying which side; its warnings are
    /// validate's business, not the diff's.
    private static func errors(of run: ValidationRun, side: String) -> [Diagnostic] {
        run.report.diagnostics.filter { $0.severity == .error }.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.message = "the \(side) catalog does not load, so it cannot be compared: \(diagnostic.message)"
            return diagnostic
        }
    }
}
