public import StorekeeperCatalog
import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperPlatform

/// Reads catalogs as they were at a git revision, through `git cat-file` and
/// `git ls-tree`, so that a pull request's catalogs can be compared with the
/// main branch's without a second checkout.
///
/// Paths this reader serves start with the revision and a colon, as git
/// writes them: `main:Catalogs/game.yaml`. The part after the colon is
/// relative to the current directory, like any other path on the command
/// line. Includes resolve within the revision (`main:Catalogs/fragments/x.yaml`),
/// and diagnostics name the files that way, so old and new never look alike.
/// Any other path is read by `fallback` (the file system), so one reader
/// serves both sides of a diff.
public struct GitRevisionReader: SourceReader {
    /// The revision as the user named it: `main`, `origin/main`, `v1.2`, a commit.
    public let revision: String
    /// The commit it named when the reader was opened: every read uses it, so a
    /// branch that moves meanwhile does not mix two versions.
    public let commit: String
    /// What reads paths that are not in the revision.
    public let fallback: any SourceReader

    /// Opens a revision: checks that git runs, that the current directory is in a
    /// repository, and that the revision names a commit.
    public static func open(revision: String, fallback: any SourceReader = FileSystemReader()) throws(GitRevisionError) -> GitRevisionReader {
        guard !revision.isEmpty, !revision.hasPrefix("-"), !revision.contains(where: { $0 == "\n" || $0 == "\0" }) else {
            throw .invalidRevision(revision)
        }
        let verified = try git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], limit: 4096)
        if verified.termination == .exited(0) {
            let commit = String(decoding: verified.standardOutput, as: UTF8.self).trimmingLineEnd()
            return GitRevisionReader(revision: revision, commit: commit, fallback: fallback)
        }
        let repository = try git(["rev-parse", "--git-dir"], limit: 4096)
        if repository.termination != .exited(0) {
            throw .notARepository(firstLine(repository.standardError, or: "not a git repository"))
        }
        throw .unknownRevision(revision)
    }

    private init(revision: String, commit: String, fallback: any SourceReader) {
        self.revision = revision
        self.commit = commit
        self.fallback = fallback
    }

    /// The path this reader serves for `path` at its revision: `main:Catalogs/game.yaml`.
    /// A bare file name gets `./` (`main:./game.yaml`), so that includes
    /// beside it resolve inside the revision too, not in the work tree.
    /// An absolute path inside the current directory is made relative to it.
    public func path(for path: String) throws(GitRevisionError) -> String {
        var path = path
        if path.hasPrefix("/") {
            let absolute = SourcePath.normalize(path)
            guard let directory = Self.currentDirectory(), SourcePath.isInside(absolute, root: directory) else { throw .absolutePath(path) }
            path = absolute == directory ? "." : String(absolute.dropFirst(directory == "/" ? 1 : directory.count + 1))
        }
        let normalized = SourcePath.normalize(path)
        // A file's includes resolve from its folder: a bare name needs one to stay in the revision.
        if normalized != ".", !normalized.contains("/"), kind(of: prefix + normalized) == .file {
            return prefix + "./" + normalized
        }
        return prefix + normalized
    }

    /// Whether a path is one this reader serves from its revision.
    public func isInRevision(_ path: String) -> Bool { path.hasPrefix(prefix) }

    private var prefix: String { revision + ":" }

    /// Git's name for a path of this reader: the commit, a colon, and a path
    /// relative to the current directory (`./` or `../` makes git read it so).
    private func object(_ path: String) -> String {
        var inside = String(path.dropFirst(prefix.count))
        if inside == "." { inside = "./" } else if !inside.hasPrefix("./") && !inside.hasPrefix("../") { inside = "./" + inside }
        return commit + ":" + inside
    }

    /// Reads a file of the revision, refusing one over `limit` bytes.
    public func read(_ path: String, limit: Int) throws(SourceReadError) -> [UInt8] {
        guard isInRevision(path) else { return try fallback.read(path, limit: limit) }
        let output: ChildOutcome
        do {
            output = try GitCommand.run(["cat-file", "blob", object(path)], outputLimit: limit)
        } catch {
            throw .unreadable(path, reason: Self.describe(error))
        }
        if output.standardOutputExceededLimit {
            let size = (try? GitCommand.run(["cat-file", "-s", object(path)], outputLimit: 64))
                .flatMap { Int(String(decoding: $0.standardOutput, as: UTF8.self).trimmingLineEnd()) } ?? limit + 1
            throw .tooLarge(path, size: size, limit: limit)
        }
        guard output.termination == .exited(0) else {
            switch kind(of: path) {
            case .directory: throw .isDirectory(path)
            case .missing: throw .notFound(path)
            case .file, .other: throw .unreadable(path, reason: Self.firstLine(output.standardError, or: "git cat-file failed"))
            }
        }
        return output.standardOutput
    }

    /// Whether a path of the revision is a file, a directory, or nothing.
    public func kind(of path: String) -> SourceKind {
        guard isInRevision(path) else { return fallback.kind(of: path) }
        guard let output = try? GitCommand.run(["cat-file", "-t", object(path)], outputLimit: 64), output.termination == .exited(0) else {
            return .missing
        }
        switch String(decoding: output.standardOutput, as: UTF8.self).trimmingLineEnd() {
        case "blob": return .file
        case "tree": return .directory
        default: return .other  // a submodule's commit: nothing to read
        }
    }

    /// The names of a directory's entries at the revision, sorted.
    public func entries(ofDirectory path: String) throws(SourceReadError) -> [String] {
        guard isInRevision(path) else { return try fallback.entries(ofDirectory: path) }
        let output: ChildOutcome
        do {
            // Without --full-tree, git lists a tree relative to the current directory's place in the
            // repository, so from a subfolder it lists nothing of the tree asked for.
            output = try GitCommand.run(["ls-tree", "-z", "--full-tree", "--name-only", object(path)], outputLimit: 16 << 20)
        } catch {
            throw .unreadable(path, reason: Self.describe(error))
        }
        guard output.termination == .exited(0), !output.standardOutputExceededLimit else { throw .notFound(path) }
        var names: [String] = []
        for name in output.standardOutput.split(separator: 0) { names.append(try FileName.decoded(name, in: path)) }
        return names.sorted()
    }

    /// Links are blobs in git, never folders to follow; the file system's are the fallback's.
    public func isSymbolicLink(_ path: String) -> Bool {
        isInRevision(path) ? false : fallback.isSymbolicLink(path)
    }

    /// A revision's links are blobs holding the target's name, never followed;
    /// the file system's are resolved by the fallback.
    public func realPath(_ path: String) throws(SourceReadError) -> String {
        isInRevision(path) ? SourcePath.normalize(path) : try fallback.realPath(path)
    }

    private static func git(_ arguments: [String], limit: Int) throws(GitRevisionError) -> ChildOutcome {
        do {
            return try GitCommand.run(arguments, outputLimit: limit)
        } catch {
            throw error.isMissingExecutable ? .notInstalled : .system(error.reason)
        }
    }

    private static func describe(_ failure: ChildProcessError) -> String {
        failure.isMissingExecutable ? GitRevisionError.notInstalled.description : GitRevisionError.system(failure.reason).description
    }

    /// The current directory, normalized.
    static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return SourcePath.normalize(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Git's first line of complaint, without its `fatal: ` prefix.
    static func firstLine(_ standardError: [UInt8], or fallback: String) -> String {
        let text = String(decoding: standardError, as: UTF8.self)
        guard let line = text.split(separator: "\n").first.map(String.init), !line.isEmpty else { return fallback }
        return line.hasPrefix("fatal: ") ? String(line.dropFirst(7)) : line
    }
}

extension String {
    /// The text without a final line break (git ends its answers with one).
    func trimmingLineEnd() -> String {
        var text = self
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
