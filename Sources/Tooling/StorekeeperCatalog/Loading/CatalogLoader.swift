import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperYAML

/// The outcome of loading one catalog with its fragments.
public struct CatalogLoadResult: Sendable {
    /// The catalog, when its header (name, app) could be read; its products
    /// are those that decoded without errors.
    public var catalog: Catalog?
    /// Every problem found in the catalog and its fragments.
    public var diagnostics: [Diagnostic]
    /// Every file read: the catalog first, then fragments in include order.
    public var files: [String]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Loads catalogs: reads the file, follows `include`, decodes every file and
/// checks what spans files (unique ids, declared references).
public struct CatalogLoader: Sendable {
    /// Limits on every YAML file read.
    public var limits: YAMLLimits
    /// Where files come from.
    public var reader: any SourceReader

    /// Creates a loader.
    public init(reader: any SourceReader = FileSystemReader(), limits: YAMLLimits = .default) {
        self.reader = reader
        self.limits = limits
    }

    /// Loads the catalog at `path` and everything it includes.
    public func load(_ path: String) -> CatalogLoadResult {
        var cache = ParsedFiles()
        return load(path, cache: &cache)
    }

    /// The deepest chain of includes followed (a catalog needs two or three).
    public static let maxIncludeDepth = 32

    /// Loads a catalog, sharing parsed files with other loads of one run.
    ///
    /// Includes must stay in the catalog file's folder or below it (its
    /// include root), however the catalog was named (its path, or a folder
    /// above it), so that every command gives the same answer and a catalog
    /// cannot pull in, and a report quote, files from elsewhere on the
    /// machine. Both the path text and, for symbolic links, the real path
    /// must stay inside.
    func load(_ path: String, cache: inout ParsedFiles) -> CatalogLoadResult {
        var context = YAMLDecodingContext.catalog()
        let path = SourcePath.normalize(path)
        let root = IncludeRoot(folder: SourcePath.normalize(SourcePath.directory(of: path)), reader: reader)
        let parsed = parse(path, cache: &cache, budget: limits.maxTotalSize)
        if parsed.overBudget || parsed.size > limits.maxTotalSize {
            let diagnostic = Diagnostic(
                .error, rule: YAMLRuleID.limit,
                "the file is \(ByteCount(parsed.size)), over the limit of \(ByteCount(limits.maxTotalSize)) for a catalog and its fragments together; raise the limit with --max-total-size",
                at: SourceLocation(file: path, line: 1, column: 1))
            return CatalogLoadResult(catalog: nil, diagnostics: [diagnostic], files: [path])
        }
        context.diagnostics.append(contentsOf: parsed.diagnostics)
        if let error = parsed.readError {
            context.diagnostics.append(Diagnostic(.error, rule: CatalogRuleID.include, "cannot read the catalog: \(error)", at: SourceLocation(file: path, line: 1, column: 1)))
        }
        var accumulator = CatalogAccumulator()
        guard let catalogFile = parsed.document?.withUnownedRoot({ root in
            root.map { CatalogFileDecoder.decode($0, fragmentDefaults: nil, streamed: parsed.stream, into: &accumulator, context: &context) }
        }) else {
            return CatalogLoadResult(catalog: nil, diagnostics: context.finished(file: path), files: [path])
        }
        var files = [path]
        var visited: Set<FileKey> = [fileKey(path)]
        var budget = InputBudget(limit: limits.maxTotalSize, used: parsed.size)
        followIncludes(
            of: catalogFile, at: path, root: root, chain: [IncludeLink(file: path, site: nil)], defaults: catalogFile.defaults,
            into: &accumulator, context: &context, cache: &cache, files: &files, visited: &visited, budget: &budget)
        cache.release(files)
        let catalog = accumulator.finish(catalogFile, files: files, context: &context)
        return CatalogLoadResult(catalog: catalog, diagnostics: context.finished(file: path), files: files)
    }

    /// One step of an include chain: a file and the include entry that named it.
    struct IncludeLink {
        var file: String
        var site: Located<String>?
    }

    private func followIncludes(
        of file: DecodedFile, at path: String, root: IncludeRoot, chain: [IncludeLink], defaults: Defaults,
        into accumulator: inout CatalogAccumulator, context: inout YAMLDecodingContext, cache: inout ParsedFiles,
        files: inout [String], visited: inout Set<FileKey>, budget: inout InputBudget
    ) {
        for include in file.includes {
            if include.value.hasPrefix("/") || include.value.hasPrefix("~") {
                context.error(CatalogRuleID.include, "include paths are relative to the file that names them; write '\(include.value)' relative to \(path)", at: include)
                continue
            }
            guard include.value.hasSuffix(".yaml") || include.value.hasSuffix(".yml") else {
                context.error(CatalogRuleID.include, "an include names a YAML fragment, ending in .yaml or .yml; '\(include.value)' does not", at: include)
                continue
            }
            let target = SourcePath.resolve(include.value, from: path)
            if let refusal = root.refusal(of: target) {
                // Said at the include entry: the refused file is never read, so no line of it can be quoted.
                context.error(CatalogRuleID.include, "'\(include.value)' \(refusal); keep a catalog's fragments in its folder or below it", at: include)
                accumulator.refuseAllDeclarations()
                continue
            }
            guard chain.count <= Self.maxIncludeDepth else {
                context.error(CatalogRuleID.include, "includes nest deeper than \(Self.maxIncludeDepth) files here; a catalog needs two or three levels", at: include)
                continue
            }
            if let start = chain.firstIndex(where: { $0.file == target }) {
                let cycle = (chain[start...].map(\.file) + [target]).joined(separator: " → ")
                var notes: [Diagnostic.Note] = []
                if let site = chain[start...].dropFirst().first?.site {
                    notes.append(Diagnostic.Note("the cycle starts with this include", at: site.location))
                }
                context.error(CatalogRuleID.include, "this include makes a cycle (\(cycle)); remove it", at: include, notes: notes)
                continue
            }
            // A fragment reached twice (two fragments both include it, or
            // through a link) is read, and counted against the budget, once.
            guard visited.insert(fileKey(target)).inserted else { continue }
            let parsed = parse(target, cache: &cache, budget: budget.remaining)
            if parsed.overBudget || parsed.size > budget.remaining {
                // Not decoded, so that the catalog's memory stays bounded; later, smaller fragments may still fit.
                context.error(
                    YAMLRuleID.limit,
                    "cannot include '\(include.value)': it is \(ByteCount(parsed.size)), and with the \(ByteCount(budget.used)) already read for this catalog that is over the limit of \(ByteCount(budget.limit)) for a catalog and its fragments together; raise the limit with --max-total-size",
                    at: include)
                accumulator.refuseAllDeclarations()
                continue
            }
            budget.used += parsed.size
            if let error = parsed.readError {
                let reason: String
                switch error {
                case .notFound: reason = "there is no file \(target)"
                default: reason = error.description
                }
                context.error(CatalogRuleID.include, "cannot include '\(include.value)': \(reason); include paths are relative to \(path)", at: include)
                accumulator.refuseAllDeclarations()
                continue
            }
            files.append(target)
            context.diagnostics.append(contentsOf: parsed.diagnostics)
            guard let fragment = parsed.document?.withUnownedRoot({ root in
                root.map { CatalogFileDecoder.decode($0, fragmentDefaults: defaults, streamed: parsed.stream, into: &accumulator, context: &context) }
            }) else {
                // Not parsed (its YAML error is reported): what it declares is unknown.
                accumulator.refuseAllDeclarations()
                continue
            }
            followIncludes(
                of: fragment, at: target, root: root, chain: chain + [IncludeLink(file: target, site: include)], defaults: defaults,
                into: &accumulator, context: &context, cache: &cache, files: &files, visited: &visited, budget: &budget)
        }
    }

    /// What tells files apart: the same file reached by two names (a
    /// symbolic or hard link) has one key.
    enum FileKey: Hashable {
        case identity(SourceFileIdentity)
        /// By bytes (``PathKey``): canonically equivalent names are two files.
        case path(PathKey)
    }

    /// The file's identity when the reader knows it, else its real path
    /// (else, when it does not resolve, its path: the read then fails).
    func fileKey(_ path: String) -> FileKey {
        if let identity = reader.fileIdentity(path) { return .identity(identity) }
        return .path(PathKey((try? reader.realPath(path)) ?? path))
    }

    /// Reads and parses a file once per run. A file over `budget` bytes
    /// (what a catalog has left of its total) but within the per-file limit
    /// is not read: the result says so (`overBudget`), and is not kept, since
    /// another catalog may have room for it.
    func parse(_ path: String, cache: inout ParsedFiles, budget: Int = .max) -> ParsedFile {
        if let parsed = cache[path] { return parsed }
        let parsed: ParsedFile
        do {
            let bytes = try reader.read(path, limit: min(limits.maxFileSize, budget))
            let stream = ProductStream()
            let result = YAMLParser.parse(bytes, file: path, limits: limits, streaming: ("products", stream))
            if result.diagnostics.contains(where: { $0.severity == .error }), PolicyRecognition.isCompiledPolicy(bytes) {
                // A damaged compiled policy (cut short, a doubled comma): its YAML errors would
                // only hide what it is. An intact one parses, and the decoder says it at `format`.
                let diagnostic = Diagnostic(
                    .error, rule: CatalogRuleID.unsupportedFormat,
                    "this is a compiled policy (storekeeper compile's output), not a catalog, and it is damaged: name the catalog it was compiled from; `storekeeper explain \(path)` says where the policy is broken",
                    at: SourceLocation(file: path, line: 1, column: 1))
                parsed = ParsedFile(document: nil, diagnostics: [diagnostic], readError: nil, stream: nil, size: bytes.count)
            } else {
                parsed = ParsedFile(document: result.document, diagnostics: result.diagnostics, readError: nil, stream: stream, size: bytes.count)
            }
        } catch .tooLarge(_, let size, _) where size <= limits.maxFileSize {
            return ParsedFile(document: nil, diagnostics: [], readError: nil, stream: nil, size: size, overBudget: true)
        } catch .tooLarge(_, let size, _) {
            let diagnostic = Diagnostic(
                .error, rule: YAMLRuleID.limit,
                "the file is \(ByteCount(size)), over the limit of \(ByteCount(limits.maxFileSize)); split it into fragments with `include`, or raise the limit with --max-file-size",
                at: SourceLocation(file: path, line: 1, column: 1))
            parsed = ParsedFile(document: nil, diagnostics: [diagnostic], readError: nil, stream: nil)
        } catch {
            parsed = ParsedFile(document: nil, diagnostics: [], readError: error, stream: nil)
        }
        cache[path] = parsed
        return parsed
    }
}

/// A file read and parsed, or the reason it could not be read.
struct ParsedFile {
    var document: YAMLDocument?
    var diagnostics: [Diagnostic]
    var readError: SourceReadError?
    /// The products drafted while parsing (their nodes are not in `document`).
    var stream: ProductStream?
    /// How many bytes were read (0 when the file was not read), or, when
    /// `overBudget`, how large the file is.
    var size = 0
    /// Whether the file was left unread because the catalog's total budget had no room for it.
    var overBudget = false
}

/// The bytes one catalog and its fragments may still read (`YAMLLimits.maxTotalSize`).
struct InputBudget {
    var limit: Int
    var used: Int

    var remaining: Int { max(0, limit - used) }
}

/// The files parsed in one run, by normalized path.
struct ParsedFiles {
    /// By path, compared byte for byte (``PathKey``).
    private var byPath: [PathKey: ParsedFile] = [:]

    /// Every file parsed and still held.
    var values: Dictionary<PathKey, ParsedFile>.Values { byPath.values }

    subscript(path: String) -> ParsedFile? {
        get { byPath[PathKey(path)] }
        set { byPath[PathKey(path)] = newValue }
    }

    /// Drops the node trees of files a catalog has finished with, keeping
    /// their diagnostics: the trees are the largest thing a run holds, and
    /// a fragment that another catalog includes again is simply re-parsed.
    mutating func release(_ paths: [String]) {
        for path in paths where self[path]?.document != nil {
            self[path] = nil
        }
    }
}
