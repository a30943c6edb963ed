/// Reads source files. The loader reads through this protocol so that tests
/// (and embedders) can serve catalogs from memory; `FileSystemReader` is the
/// real one.
public protocol SourceReader: Sendable {
    /// Reads a whole file, refusing one larger than `limit` bytes before reading it.
    func read(_ path: String, limit: Int) throws(SourceReadError) -> [UInt8]
    /// Whether a path is a file, a directory, or nothing.
    func kind(of path: String) -> SourceKind
    /// The names (not paths) of the entries of a directory.
    func entries(ofDirectory path: String) throws(SourceReadError) -> [String]
    /// Whether a path is a symbolic link. Directory searches do not follow
    /// links to folders, which could otherwise loop.
    func isSymbolicLink(_ path: String) -> Bool
    /// The path with every symbolic link resolved and `.` and `..` folded:
    /// where the file really is, to check that an include stays in its
    /// catalog's folder (the path text alone says nothing about links).
    func realPath(_ path: String) throws(SourceReadError) -> String
    /// Reads at most the first `count` bytes of a file, whatever its size:
    /// to tell what a file too large to read whole is.
    func read(_ path: String, leading count: Int) throws(SourceReadError) -> [UInt8]
    /// The file's identity on its device (device and inode numbers), or nil
    /// when the reader has none (memory) or the path names nothing: two
    /// paths with one identity are one file, even through a hard link.
    func fileIdentity(_ path: String) -> SourceFileIdentity?
    /// What a symbolic link holds (the path it points at, as written in
    /// it), or nil when `path` is not a link: to name the target of a link
    /// that points at nothing.
    func linkTarget(_ path: String) -> String?
}

/// A file as the file system knows it, whatever path reaches it.
public struct SourceFileIdentity: Sendable, Hashable {
    /// The device that holds the file.
    public var device: UInt64
    /// The file's number on that device.
    public var inode: UInt64

    /// An identity from `stat`'s `st_dev` and `st_ino`.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

extension SourceReader {
    /// Readers that hold files in memory read the whole file and keep its start.
    public func read(_ path: String, leading count: Int) throws(SourceReadError) -> [UInt8] {
        Array(try read(path, limit: .max).prefix(count))
    }

    /// Readers without links (memory) have none.
    public func isSymbolicLink(_ path: String) -> Bool { false }

    /// Readers without links (memory) resolve a path by normalizing it.
    public func realPath(_ path: String) throws(SourceReadError) -> String { SourcePath.normalize(path) }

    /// Readers without a file system have no identities: files are told apart by their real paths.
    public func fileIdentity(_ path: String) -> SourceFileIdentity? { nil }

    /// Readers without links (memory) have no targets.
    public func linkTarget(_ path: String) -> String? { nil }
}

/// What a path names.
public enum SourceKind: Sendable, Hashable {
    /// A readable file (or something that reads like one).
    case file
    /// A directory.
    case directory
    /// Nothing: the path does not exist.
    case missing
    /// Something that is neither: a pipe, a socket, a device. Never read,
    /// since reading a pipe could wait forever.
    case other
}

/// Why a file could not be read.
public enum SourceReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file at the path.
    case notFound(String)
    /// The path is a directory.
    case isDirectory(String)
    /// The file is larger than the limit.
    case tooLarge(String, size: Int, limit: Int)
    /// Another failure, with the system's reason.
    case unreadable(String, reason: String)

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .notFound: "no such file"
        case .isDirectory: "it is a directory, not a file"
        case .tooLarge(_, let size, let limit): "it is \(size) bytes, over the limit of \(limit)"
        case .unreadable(_, let reason): reason
        }
    }

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .notFound(let path): "no such file: \(path)"
        case .isDirectory(let path): "\(path) is a directory, not a file"
        case .tooLarge(let path, let size, let limit): "\(path) is \(size) bytes, over the limit of \(limit)"
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}

/// Serves files from memory: for tests, and for tools that hold catalogs in
/// an editor's buffers.
public struct InMemorySourceReader: SourceReader {
    /// File contents by path.
    public var files: [String: [UInt8]]

    /// Creates a reader over text files.
    public init(_ files: [String: String]) {
        self.files = files.mapValues { Array($0.utf8) }
    }

    /// Creates a reader over raw bytes.
    public init(bytes: [String: [UInt8]]) {
        files = bytes
    }

    /// Reads a whole file, refusing one over `limit` bytes (see ``SourceReader``).
    public func read(_ path: String, limit: Int) throws(SourceReadError) -> [UInt8] {
        let path = SourcePath.normalize(path)
        guard let bytes = files[path] else {
            throw kind(of: path) == .directory ? .isDirectory(path) : .notFound(path)
        }
        guard bytes.count <= limit else { throw .tooLarge(path, size: bytes.count, limit: limit) }
        return bytes
    }

    /// Whether a path is a file, a directory, something else, or nothing.
    public func kind(of path: String) -> SourceKind {
        let path = SourcePath.normalize(path)
        if files[path] != nil { return .file }
        let prefix = path == "." ? "" : path + "/"
        return files.keys.contains { $0.hasPrefix(prefix) } ? .directory : .missing
    }

    /// The names of a directory's entries, sorted.
    public func entries(ofDirectory path: String) throws(SourceReadError) -> [String] {
        let path = SourcePath.normalize(path)
        let prefix = path == "." ? "" : path + "/"
        var names = Set<String>()
        for file in files.keys where file.hasPrefix(prefix) {
            if let name = file.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(name)) }
        }
        guard !names.isEmpty else { throw .notFound(path) }
        return names.sorted()
    }
}
