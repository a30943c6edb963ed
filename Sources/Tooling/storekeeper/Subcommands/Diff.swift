import ArgumentParser
import StorekeeperCommandLine
import StorekeeperTooling

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
        let comparison: Comparison
        do {
            comparison = try Workflows.diff(old: paths[0], new: paths[paths.count - 1], oldRevision: oldRevision, options: WorkflowOptions(limits: limits.limits))
        } catch {
            throw CommandFailure(message: error.description)
        }
        ReportOutput.write(comparison.report, format: format, color: color, rules: DiagnosticIndex.all + CatalogDiff.metadata, reader: comparison.oldReader, limit: limits.limits.maxFileSize)
        ProcessExit.now(comparison.fails(strict: strict) ? 1 : 0, keeping: comparison)
    }
}
