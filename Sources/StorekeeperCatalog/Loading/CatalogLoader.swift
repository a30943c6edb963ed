import StorekeeperDiagnostics
import StorekeeperYAML

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
    /// Loads a catalog; includes must stay inside `root` (by default the
    /// catalog file's folder), so that a catalog cannot pull in, and a report
    /// quote, files from elsewhere on the machine.
    func load(_ path: String, root: String? = nil, cache: inout ParsedFiles) -> CatalogLoadResult {
        var context = DecodingContext()
        let path = SourcePath.normalize(path)
        let root = SourcePath.normalize(root ?? SourcePath.directory(of: path))
        let parsed = parse(path, cache: &cache)
        context.diagnostics.append(contentsOf: parsed.diagnostics)
        if let error = parsed.readError {
            context.diagnostics.append(Diagnostic(.error, rule: CatalogRuleID.include, "cannot read the catalog: \(error)", at: SourceLocation(file: path, line: 1, column: 1)))
        }
        var accumulator = CatalogAccumulator()
        guard let catalogFile = parsed.document?.withUnownedRoot({ root in
            root.map { CatalogFileDecoder.decode($0, fragmentDefaults: nil, streamed: parsed.stream, into: &accumulator, context: &context) }
        }) else {
            return CatalogLoadResult(catalog: nil, diagnostics: context.diagnostics.finished(file: path), files: [path])
        }
        var files = [path]
        var visited: Set<String> = [path]
        followIncludes(
            of: catalogFile, at: path, root: root, chain: [IncludeLink(file: path, site: nil)], defaults: catalogFile.defaults,
            into: &accumulator, context: &context, cache: &cache, files: &files, visited: &visited)
        cache.release(files)
        let catalog = accumulator.finish(catalogFile, files: files, context: &context)
        return CatalogLoadResult(catalog: catalog, diagnostics: context.diagnostics.finished(file: path), files: files)
    }

    /// One step of an include chain: a file and the include entry that named it.
    struct IncludeLink {
        var file: String
        var site: Located<String>?
    }

    private func followIncludes(
        of file: DecodedFile, at path: String, root: String, chain: [IncludeLink], defaults: Defaults,
        into accumulator: inout CatalogAccumulator, context: inout DecodingContext, cache: inout ParsedFiles,
        files: inout [String], visited: inout Set<String>
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
            guard SourcePath.isInside(target, root: root) else {
                context.error(CatalogRuleID.include, "'\(include.value)' leaves the folder being validated (\(root)); keep fragments inside it", at: include)
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
            // A fragment reached twice (two fragments both include it) is read once.
            guard visited.insert(target).inserted else { continue }
            let parsed = parse(target, cache: &cache)
            if let error = parsed.readError {
                let reason: String
                switch error {
                case .notFound: reason = "there is no file \(target)"
                default: reason = error.description
                }
                context.error(CatalogRuleID.include, "cannot include '\(include.value)': \(reason); include paths are relative to \(path)", at: include)
                continue
            }
            files.append(target)
            context.diagnostics.append(contentsOf: parsed.diagnostics)
            guard let fragment = parsed.document?.withUnownedRoot({ root in
                root.map { CatalogFileDecoder.decode($0, fragmentDefaults: defaults, streamed: parsed.stream, into: &accumulator, context: &context) }
            }) else { continue }
            followIncludes(
                of: fragment, at: target, root: root, chain: chain + [IncludeLink(file: target, site: include)], defaults: defaults,
                into: &accumulator, context: &context, cache: &cache, files: &files, visited: &visited)
        }
    }

    /// Reads and parses a file once per run.
    func parse(_ path: String, cache: inout ParsedFiles) -> ParsedFile {
        if let parsed = cache.files[path] { return parsed }
        let parsed: ParsedFile
        do {
            let bytes = try reader.read(path, limit: limits.maxFileSize)
            let stream = ProductStream()
            let result = YAMLParser.parse(bytes, file: path, limits: limits, streaming: ("products", stream))
            parsed = ParsedFile(document: result.document, diagnostics: result.diagnostics, readError: nil, stream: stream)
        } catch .tooLarge(_, let size, let limit) {
            let diagnostic = Diagnostic(
                .error, rule: YAMLRuleID.limit,
                "the file is \(ByteCount(size)), over the limit of \(ByteCount(limit)); split it into fragments with `include`, or raise the limit with --max-file-size",
                at: SourceLocation(file: path, line: 1, column: 1))
            parsed = ParsedFile(document: nil, diagnostics: [diagnostic], readError: nil, stream: nil)
        } catch {
            parsed = ParsedFile(document: nil, diagnostics: [], readError: error, stream: nil)
        }
        cache.files[path] = parsed
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
}

/// The files parsed in one run, by normalized path.
struct ParsedFiles {
    var files: [String: ParsedFile] = [:]

    /// Drops the node trees of files a catalog has finished with, keeping
    /// their diagnostics: the trees are the largest thing a run holds, and
    /// a fragment that another catalog includes again is simply re-parsed.
    mutating func release(_ paths: [String]) {
        for path in paths where files[path]?.document != nil {
            files[path] = nil
        }
    }
}
