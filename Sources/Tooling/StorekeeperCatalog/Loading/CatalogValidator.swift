import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperYAML

/// Why a validation run could not start: a path named on the command line
/// that cannot be read or holds no catalog. (Problems inside catalogs are
/// diagnostics, not these.)
public enum ValidationInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not exist.
    case notFound(String)
    /// The path could not be read.
    case unreadable(String, reason: String)
    /// A directory with no catalog below it.
    case noCatalogs(String)

    /// A sentence for the user.
    public var description: String {
        switch self {
        case .notFound(let path): "no such file or directory: \(path)"
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .noCatalogs(let path): "no catalog found under \(path) (a catalog is a .yaml or .yml file with a top-level `catalog` key)"
        }
    }
}

/// What a validation run found and loaded.
public struct ValidationRun {
    /// Every diagnostic, and how many files were read.
    public var report: ValidationReport
    /// The catalogs that could be loaded (their products are the valid ones).
    public var catalogs: [Catalog]
    /// What was parsed along the way.
    let parsed: ParsedFiles
}

/// Validates the catalogs named by files and directories, as
/// `storekeeper validate` does.
///
/// A file is validated as a catalog. A directory is searched (hidden entries
/// skipped, links to folders not followed, pipes and devices never opened)
/// for `*.yaml` and `*.yml` files with a top-level
/// `catalog` key; fragments are checked through the catalogs that include
/// them. A file reached by two names (a link beside the file it points at,
/// or named twice) is validated once, under its own name rather than a
/// link's; a `.yaml` or `.yml` link found in a search that points at nothing
/// is an error (`dangling-link`). A file is parsed once for discovery and
/// loading, as long as the
/// trees discovery keeps add up to at most `YAMLLimits.maxTotalSize` bytes of
/// source (past that, a file is parsed again when it is loaded, so that a
/// folder of many large fragments cannot hold them all at once); a fragment
/// that a second catalog includes again is parsed again (trees are released
/// as soon as a catalog is loaded, to bound memory).
public struct CatalogValidator: Sendable {
    /// The loader that reads and decodes each catalog.
    public var loader: CatalogLoader

    /// Creates a validator.
    public init(loader: CatalogLoader = CatalogLoader()) {
        self.loader = loader
    }

    /// Validates every catalog named by `paths`.
    public func validate(_ paths: [String]) throws(ValidationInputError) -> ValidationReport {
        try run(paths).report
    }

    /// Validates every catalog named by `paths`, and keeps what was loaded:
    /// the catalogs (for checks that run on the model), and everything read
    /// along the way, so that a command about to exit can do so without
    /// spending time freeing it.
    public func run(_ paths: [String]) throws(ValidationInputError) -> ValidationRun {
        var cache = ParsedFiles()
        var catalogs = CatalogFiles(loader: loader)
        var danglingLinks: [String] = []
        for path in paths {
            switch loader.reader.kind(of: path) {
            case .missing:
                throw .notFound(path)
            case .other:
                throw .unreadable(path, reason: "not a regular file or directory")
            case .file:
                catalogs.add(SourcePath.normalize(path))
            case .directory:
                let linksBefore = danglingLinks.count
                let found = try discover(in: path, cache: &cache, danglingLinks: &danglingLinks)
                if found.isEmpty, danglingLinks.count == linksBefore { throw .noCatalogs(path) }
                for file in found { catalogs.add(file) }
            }
        }
        var diagnostics: [Diagnostic] = []
        var files = Set<PathKey>()
        var loaded: [Catalog] = []
        for link in danglingLinks where files.insert(PathKey(link)).inserted {
            diagnostics.append(danglingLinkDiagnostic(link))
        }
        for path in catalogs.paths {
            let parsed = loader.parse(path, cache: &cache)
            if let error = parsed.readError {
                throw .unreadable(path, reason: error.reason)
            }
            if let root = parsed.document?.root, !Self.isCatalog(root) {
                files.insert(PathKey(path))
                diagnostics.append(contentsOf: parsed.diagnostics)
                diagnostics.append(Diagnostic(
                    .error, rule: CatalogRuleID.notACatalog,
                    "this file has no top-level `catalog` key, so it is not a catalog; fragments are checked through the catalog that includes them, so validate that one",
                    at: root.range))
                continue
            }
            let result = loader.load(path, cache: &cache)
            diagnostics.append(contentsOf: result.diagnostics)
            files.formUnion(result.files.map(PathKey.init))
            if let catalog = result.catalog { loaded.append(catalog) }
        }
        return ValidationRun(
            report: ValidationReport(diagnostics: diagnostics, filesChecked: files.count), catalogs: loaded, parsed: cache)
    }

    /// Every catalog file below a directory, in path order. A YAML file
    /// that is a link to a file outside the directory stops the run: it
    /// might be a catalog, and reading it could quote a file from elsewhere.
    /// A YAML link that points at nothing is added to `danglingLinks`: it
    /// may have been a catalog, so it is not passed over in silence.
    func discover(
        in directory: String, cache: inout ParsedFiles, danglingLinks: inout [String]
    ) throws(ValidationInputError) -> [String] {
        var found: [String] = []
        let directory = SourcePath.normalize(directory)
        let realDirectory: String
        do {
            realDirectory = try loader.reader.realPath(directory)
        } catch {
            throw .unreadable(directory, reason: error.reason)
        }
        var pending = [directory]
        /// Bytes of source whose trees discovery keeps for loading.
        var kept = 0
        while let folder = pending.popLast() {
            let names: [String]
            do {
                names = try loader.reader.entries(ofDirectory: folder)
            } catch {
                throw .unreadable(folder, reason: error.reason)
            }
            for name in names where !name.hasPrefix(".") {
                let path = folder == "." ? name : folder + "/" + name
                switch loader.reader.kind(of: path) {
                case .directory:
                    // Links to folders are not followed: a link to an enclosing folder would loop.
                    if !loader.reader.isSymbolicLink(path) { pending.append(path) }
                case .file where name.hasSuffix(".yaml") || name.hasSuffix(".yml"):
                    if let refusal = searchRefusal(path, in: directory, realDirectory: realDirectory) {
                        throw .unreadable(path, reason: refusal)
                    }
                    if try isCatalogFile(path, cache: &cache) { found.append(path) }
                    if let parsed = cache[path], parsed.document != nil {
                        if kept + parsed.size > loader.limits.maxTotalSize { cache.release([path]) } else { kept += parsed.size }
                    }
                case .missing where (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && loader.reader.isSymbolicLink(path):
                    danglingLinks.append(path)
                default:
                    break
                }
            }
        }
        return found.sorted()
    }

    /// The error for a YAML link found in a search that leads to no file,
    /// naming what it points at.
    private func danglingLinkDiagnostic(_ link: String) -> Diagnostic {
        let why: String
        if let target = loader.reader.linkTarget(link) {
            let resolved = target.hasPrefix("/") ? target : SourcePath.resolve(target, from: link)
            why = loader.reader.isSymbolicLink(resolved)
                ? "its target, '\(target)', is a link that leads to no file (to nothing, or round in a loop)"
                : "its target, '\(target)', does not exist"
        } else {
            why = "its target does not exist"
        }
        return Diagnostic(
            .error, rule: CatalogRuleID.danglingLink,
            "this symbolic link points at nothing: \(why); restore the file it names, or remove the link",
            at: SourceLocation(file: link, line: 1, column: 1))
    }

    /// Why a `.yaml` file met in a folder search may not be read: a link
    /// out of the searched folder, to a hidden entry in it, or one that
    /// cannot be resolved (it might still open). Nil when it may be read.
    private func searchRefusal(_ path: String, in directory: String, realDirectory: String) -> String? {
        let real: String
        do {
            real = try loader.reader.realPath(path)
        } catch .notFound {
            return nil
        } catch {
            return "its real path cannot be resolved (\(error.reason)), so it cannot be checked to stay in \(directory); name a file that resolves"
        }
        if !SourcePath.isInside(real, root: realDirectory) {
            return "it is a symbolic link to \(real), outside \(directory); name that file itself to validate it, or replace the link with it"
        }
        if let hidden = SourcePath.hiddenComponent(of: real, below: realDirectory) {
            return "it is a symbolic link to a hidden entry (\(hidden)), which a search never reads; replace the link with the file"
        }
        return nil
    }

    /// Whether a file is a catalog: its top level has a `catalog` key. A file
    /// too broken to parse counts when one of its lines starts with
    /// `catalog:`, or when it is too large to read, so that its errors are
    /// reported rather than skipped.
    private func isCatalogFile(_ path: String, cache: inout ParsedFiles) throws(ValidationInputError) -> Bool {
        let parsed = loader.parse(path, cache: &cache)
        if let root = parsed.document?.root { return Self.isCatalog(root) }
        // A YAML file that cannot be read might be a catalog: stop rather than pass it over.
        if let error = parsed.readError { throw .unreadable(path, reason: error.reason) }
        // Over the size limit, it cannot be checked, and a file that large deserves the report.
        guard let bytes = try? loader.reader.read(path, limit: loader.limits.maxFileSize) else { return true }
        return Self.looksLikeCatalog(bytes)
    }

    /// Whether a parsed file is a catalog: its top level has a `catalog` key,
    /// or a key one typing mistake away from it (`catalg:`, `catlog:`), so that the misspelling is
    /// reported instead of the file being skipped without a word.
    static func isCatalog(_ root: YAMLNode) -> Bool {
        guard root.kind == .mapping else { return false }
        return root.pairs.contains { pair in
            guard let key = pair.key.text else { return false }
            return key == "catalog" || Suggestion.isMisspelling(key, of: "catalog", edits: 1)
        }
    }

    /// A line that starts with `catalog:` (after an optional byte order mark).
    static func looksLikeCatalog(_ bytes: [UInt8]) -> Bool {
        let key = Array("catalog".utf8)
        var lineStart = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = 3 }
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            // Quoted (`"catalog":`) or opening a flow mapping (`{catalog:`) counts too.
            let line = bytes[lineStart..<end].drop { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }
            if line.starts(with: key) {
                let rest = line.dropFirst(key.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }
                if rest.first == UInt8(ascii: ":") { return true }
            }
            lineStart = end + 1
        }
        return false
    }
}
