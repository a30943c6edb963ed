public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperDiff

/// What `diff` found between two sides: what the change does to people who
/// already bought, or why a side could not be compared.
public struct Comparison {
    /// The diff's findings; when a side does not load, that side's errors
    /// instead, each saying which side.
    public var report: ValidationReport
    /// Whether OLD or NEW did not load (then nothing was compared).
    public var sideFailedToLoad: Bool
    /// Reads OLD's files (from git, for a revision), falling back to the
    /// file system: it serves the source lines of both sides.
    public var oldReader: any SourceReader
    /// OLD's loading.
    public var old: ValidationRun
    /// NEW's loading.
    public var new: ValidationRun

    /// Whether the comparison fails: a side that does not load, an error,
    /// or with `strict` a warning.
    public func fails(strict: Bool) -> Bool { sideFailedToLoad || report.fails(strict: strict) }
}

extension Workflows {
    /// Compares two catalog files, or two folders whose catalogs are paired
    /// by name, loaded as ``validate(_:options:skippingEmptyFolders:)`` loads
    /// them (without the policy rules: their warnings are validate's business).
    ///
    /// - Parameters:
    ///   - old: OLD: a path, or `REV:PATH` (read from git) when no such path exists.
    ///   - new: NEW: a path on the file system.
    ///   - oldRevision: read `old` as it is at this git revision.
    ///   - options: the reader and limits (`configuration` and `checksPolicy`
    ///     are not used).
    /// - Throws: Why the sides could not be compared (exit status 2), its
    ///   message starting with the side (`OLD: `, `NEW: `): a path missing, a
    ///   file against a folder, git missing, an unknown revision, a catalog
    ///   name given twice on one side.
    public static func diff(old: String, new: String, oldRevision: String? = nil, options: WorkflowOptions = WorkflowOptions()) throws(WorkflowFailure) -> Comparison {
        let files = options.reader
        let (oldPath, oldReader) = try oldSide(old, revision: oldRevision, files: files)
        let oldKind = oldReader.kind(of: oldPath), newKind = files.kind(of: new)
        switch (oldKind, newKind) {
        case (.file, .file), (.directory, .directory): break
        case (.missing, _):
            if let git = oldReader as? GitRevisionReader {
                throw WorkflowFailure("OLD: no such file or directory at \(git.revision): \(oldPath)")
            }
            throw WorkflowFailure("OLD: no such file or directory: \(oldPath)")
        case (_, .missing): throw WorkflowFailure("NEW: no such file or directory: \(new)")
        default:
            throw WorkflowFailure("OLD (\(oldPath)) and NEW (\(new)) must be two catalog files or two directories")
        }
        let oldRun = try load(oldPath, reader: oldReader, limits: options, side: "OLD")
        let newRun = try load(new, reader: files, limits: options, side: "NEW")
        let filesChecked = oldRun.report.filesChecked + newRun.report.filesChecked

        // A catalog that does not load cannot be compared: its broken products would read as removed.
        let loadErrors = errors(of: oldRun, side: "old") + errors(of: newRun, side: "new")
        let diagnostics: [Diagnostic]
        if !loadErrors.isEmpty {
            diagnostics = loadErrors
        } else if oldKind == .file {
            guard let oldCatalog = oldRun.catalogs.first, let newCatalog = newRun.catalogs.first else {
                throw WorkflowFailure("no catalog could be read from \(oldRun.catalogs.isEmpty ? oldPath : new)")
            }
            diagnostics = CatalogDiff().compare(old: oldCatalog, new: newCatalog)
        } else {
            let pairing = CatalogPairing(old: oldRun.catalogs, new: newRun.catalogs)
            if let clash = pairing.ambiguous.first {
                throw WorkflowFailure("catalogs are paired by name, and '\(clash.name)' names more than one (\(clash.files.joined(separator: ", "))); give each name once, or compare the files one by one")
            }
            diagnostics = CatalogDiff().compare(old: oldRun.catalogs, new: newRun.catalogs)
        }
        return Comparison(
            report: ValidationReport(diagnostics: diagnostics, filesChecked: filesChecked),
            sideFailedToLoad: !loadErrors.isEmpty, oldReader: oldReader, old: oldRun, new: newRun)
    }

    /// Where OLD is read from: the file system, or a git revision (`revision`,
    /// or `REV:PATH` when no such path exists). Its reader falls back to the
    /// file system, so it also serves the source lines of both sides.
    private static func oldSide(_ argument: String, revision: String?, files: any SourceReader) throws(WorkflowFailure) -> (path: String, reader: any SourceReader) {
        if let revision { return try gitSide(argument, at: revision, files: files) }
        // A path that exists wins over the REV:PATH reading of it.
        if files.kind(of: argument) != .missing { return (argument, files) }
        guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else {
            throw WorkflowFailure("OLD: no such file or directory: \(argument) (to read it from git, write REV:PATH, like main:\(argument))")
        }
        let path = String(argument[argument.index(after: colon)...])
        guard !path.isEmpty else {
            throw WorkflowFailure("OLD: name a path after the revision, like \(argument)Catalogs")
        }
        return try gitSide(path, at: String(argument[..<colon]), files: files)
    }

    /// OLD read from a git revision, `path` relative to the current directory.
    private static func gitSide(_ path: String, at revision: String, files: any SourceReader) throws(WorkflowFailure) -> (path: String, reader: any SourceReader) {
        do {
            let reader = try GitRevisionReader.open(revision: revision, fallback: files)
            return (try reader.path(for: path), reader)
        } catch {
            throw WorkflowFailure("OLD: \(error.description)")
        }
    }

    /// Loads every catalog at a path, as validate does (includes followed).
    private static func load(_ path: String, reader: any SourceReader, limits options: WorkflowOptions, side: String) throws(WorkflowFailure) -> ValidationRun {
        do {
            return try CatalogValidator(loader: CatalogLoader(reader: reader, limits: options.limits)).run([path])
        } catch {
            throw WorkflowFailure("\(side): \(error.description)")
        }
    }

    /// The errors of one side's loading, each saying which side; its warnings
    /// are validate's business, not the diff's.
    private static func errors(of run: ValidationRun, side: String) -> [Diagnostic] {
        run.report.diagnostics.filter { $0.severity == .error }.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.message = "the \(side) catalog does not load, so it cannot be compared: \(diagnostic.message)"
            return diagnostic
        }
    }
}
