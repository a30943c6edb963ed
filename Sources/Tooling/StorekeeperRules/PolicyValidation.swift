public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperPolicy

/// Runs the policy rules over the catalogs a validation run loaded, as
/// `storekeeper validate` does: each catalog with the `storekeeper.yml`
/// found beside it (or the one named), inline suppressions applied, and the
/// problems of both reported like any other diagnostic.
public struct PolicyValidation: Sendable {
    /// Reads configuration files and catalog files (for suppression comments).
    public var reader: any SourceReader
    /// A configuration to use for every catalog instead of looking for one (`--config`).
    public var configurationPath: String?
    /// The largest configuration or catalog file read.
    public var maxFileSize: Int

    /// A policy validation that reads through `reader`.
    public init(reader: any SourceReader, configurationPath: String? = nil, maxFileSize: Int = 16 << 20) {
        self.reader = reader
        self.configurationPath = configurationPath
        self.maxFileSize = maxFileSize
    }

    /// What the rules found, and the configuration files read.
    public struct Result: Sendable {
        /// Rule diagnostics as configured, with configuration and suppression problems.
        public var diagnostics: [Diagnostic]
        /// The configuration files that were read.
        public var configurationFiles: [String]
        /// The plugin step names each catalog's configuration declares, in catalog order.
        public var extraSteps: [[String]]
        /// Each catalog's errors from `RuleRegistry.planRules` before
        /// configuration and suppression (what a compiler must refuse), in catalog order.
        public var planRuleErrors: [[Diagnostic]]

        /// A result.
        public init(diagnostics: [Diagnostic], configurationFiles: [String], extraSteps: [[String]] = [], planRuleErrors: [[Diagnostic]] = []) {
            self.diagnostics = diagnostics
            self.configurationFiles = configurationFiles
            self.extraSteps = extraSteps
            self.planRuleErrors = planRuleErrors
        }
    }

    /// Checks every catalog. Throws only when a configuration file cannot be
    /// read, or when one found beside a catalog is a link that leads out of
    /// the folder it was found in (see ``IncludeRoot``); problems inside files
    /// are diagnostics. `incompleteFiles` are the
    /// files with format errors: what they held may be missing from the
    /// catalogs, so rules about absences stay quiet for those catalogs, and
    /// their suppressions are not called unused (the products they were for
    /// may be among the missing).
    public func check(_ catalogs: [Catalog], incompleteFiles: Set<String> = []) throws(ValidationInputError) -> Result {
        if let configurationPath {
            switch reader.kind(of: configurationPath) {
            case .file: break
            case .missing: throw .notFound(configurationPath)
            default: throw .unreadable(configurationPath, reason: "not a regular file")
            }
        }
        var configurations: [String: RuleConfiguration] = [:]
        var diagnostics: [Diagnostic] = []
        var checked: [(diagnostics: [Diagnostic], configuration: RuleConfiguration)] = []
        for catalog in catalogs {
            let configuration: RuleConfiguration
            if let path = configurationPath ?? catalog.files.first.flatMap({ ConfigurationLocator.find(forCatalogAt: $0, reader: reader) }) {
                if let known = configurations[path] {
                    configuration = known
                } else {
                    // Never open a pipe or a folder; a link to nothing is reported, not passed over.
                    switch reader.kind(of: path) {
                    case .file: break
                    case .missing: throw .unreadable(path, reason: "it is a link to a file that does not exist")
                    default: throw .unreadable(path, reason: "it is not a regular file")
                    }
                    // One found by the search stays in the folder it was found in, by real path, as an
                    // include does: a link planted beside a catalog would otherwise have the lines of the
                    // file it leads to quoted. One named with --config is the user's own choice.
                    if configurationPath == nil, let refusal = IncludeRoot(
                        folder: SourcePath.normalize(SourcePath.directory(of: path)), reader: reader, role: "the folder it was found in"
                    ).refusal(of: path) {
                        throw .unreadable(path, reason: "it \(refusal); name it with --config to use it, or replace the link with the file")
                    }
                    let bytes: [UInt8]
                    do {
                        bytes = try reader.read(path, limit: maxFileSize)
                    } catch {
                        throw .unreadable(path, reason: error.reason)
                    }
                    let loaded = RuleConfiguration.load(path: path, bytes: bytes)
                    configurations[path] = loaded.configuration
                    diagnostics += loaded.diagnostics
                    configuration = loaded.configuration
                }
            } else {
                configuration = RuleConfiguration()
            }
            let complete = !catalog.files.contains(where: incompleteFiles.contains)
            let found = RuleRegistry.check(catalog, steps: StepLibrary(extraSteps: configuration.extraSteps), isComplete: complete)
            checked.append((found, configuration))
        }

        // Suppressions: every file of every catalog, once, even when two catalogs share a fragment.
        var suppressions: [Suppression] = []
        // Problems with the comments themselves (invalid, unused), by file: capped per file.
        var commentProblems: [String: [Diagnostic]] = [:]
        var scanned = Set<String>()
        let policyRules = RuleRegistry.ids
        for catalog in catalogs {
            for file in catalog.files where scanned.insert(file).inserted {
                // A file that vanished since it was loaded has no comments left to honour.
                guard let bytes = try? reader.read(file, limit: maxFileSize) else { continue }
                let scan = SuppressionScanner.scan(bytes, file: file, policyRules: policyRules)
                suppressions += scan.suppressions
                commentProblems[file, default: []] += scan.diagnostics
            }
        }
        var set = SuppressionSet(suppressions)
        for (catalog, (found, configuration)) in zip(catalogs, checked) {
            // Each file's settings resolved once, however many diagnostics it has.
            var settings: [String: FileSettings] = [:]
            var reported: [Diagnostic] = []
            // The configuration first: a comment suppressing a rule that is
            // off for its file hides nothing, and is reported as unused.
            for diagnostic in found {
                let file = diagnostic.location.file
                let resolved = settings[file] ?? configuration.settings(forFile: file)
                settings[file] = resolved
                guard let configured = resolved.apply(to: diagnostic), !set.suppresses(configured) else { continue }
                reported.append(configured)
            }
            // Listed up to a ceiling per catalog, like the format's checks; the rest counted.
            diagnostics += DiagnosticCap.capped(
                reported, rule: CatalogRuleID.tooManyProblems, source: "the policy rules", scope: "a catalog",
                at: SourceLocation(file: catalog.files.first ?? "", line: 1, column: 1))
        }
        for unused in set.unused() where !incompleteFiles.contains(unused.location.file) {
            commentProblems[unused.location.file, default: []].append(unused)
        }
        for (file, problems) in commentProblems {
            diagnostics += DiagnosticCap.capped(
                problems, rule: CatalogRuleID.tooManyProblems, source: "the suppression comments", scope: "a file",
                at: SourceLocation(file: file, line: 1, column: 1))
        }
        let planRules = Set(RuleRegistry.planRules.map { $0.description.id })
        return Result(diagnostics: diagnostics, configurationFiles: configurations.keys.sorted(), extraSteps: checked.map(\.configuration.extraSteps),
                      planRuleErrors: checked.map { $0.diagnostics.filter { $0.severity == .error && planRules.contains($0.rule) } })
    }
}
