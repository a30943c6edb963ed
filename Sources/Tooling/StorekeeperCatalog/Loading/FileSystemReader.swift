import StorekeeperCore
import StorekeeperPlatform

/// Reads files from the file system with POSIX calls: the size is checked
/// with `fstat` before a byte is read, so an oversized file costs nothing.
public struct FileSystemReader: SourceReader {
    /// Creates a reader.
    public init() {}

    /// Reads a whole file, refusing one over `limit` bytes (see ``SourceReader``).
    public func read(_ path: String, limit: Int) throws(SourceReadError) -> [UInt8] {
        let (descriptor, size) = try openRegularFile(path)
        defer { close(descriptor) }
        guard size <= limit else { throw .tooLarge(path, size: size, limit: limit) }
        return try readAll(descriptor, path, size: size)
    }

    /// Reads at most the first `count` bytes of a regular file (see ``SourceReader``).
    public func read(_ path: String, leading count: Int) throws(SourceReadError) -> [UInt8] {
        let (descriptor, size) = try openRegularFile(path)
        defer { close(descriptor) }
        return try readAll(descriptor, path, size: min(count, size))
    }

    /// Opens a regular file for reading (the caller closes it), with its size.
    private func openRegularFile(_ path: String) throws(SourceReadError) -> (Int32, Int) {
        // Non-blocking, so that opening a pipe returns at once instead of
        // waiting for a writer; anything but a regular file is then refused.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw failure(path, code)
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(descriptor)
            throw kind == S_IFDIR ? .isDirectory(path) : .unreadable(path, reason: "not a regular file")
        }
        return (descriptor, Int(status.st_size))
    }

    /// Reads `size` bytes from an open file, or fewer if it ends first.
    private func readAll(_ descriptor: Int32, _ path: String, size: Int) throws(SourceReadError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var total = 0
        while total < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc_read(descriptor, buffer.baseAddress.map { $0 + total }, size - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno)
            }
            if count == 0 { break }
            total += count
        }
        if total < size { bytes.removeSubrange(total...) }
        return bytes
    }

    /// Whether a path is a file, a directory, something else, or nothing.
    public func kind(of path: String) -> SourceKind {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// Whether a path is a symbolic link (checked without following it).
    public func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// The path with every symbolic link resolved (`realpath(3)`), absolute.
    public func realPath(_ path: String) throws(SourceReadError) -> String {
        guard let resolved = realpath(path, nil) else {
            let code = errno
            // A link whose target cannot be resolved (dangling, or a magic
            // link like /proc/self/fd/N to a deleted file) may still open:
            // it is not "no such file", which would let a reader go ahead.
            var info = stat()
            if code == ENOENT, lstat(path, &info) == 0 {
                throw .unreadable(path, reason: "it is a symbolic link whose target cannot be resolved")
            }
            throw failure(path, code)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The device and inode of the file a path reaches (`stat(2)`, following links).
    public func fileIdentity(_ path: String) -> SourceFileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return SourceFileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// What a symbolic link holds (`readlink(2)`), or nil when `path` is not
    /// a link. Bytes that are not UTF-8 are shown as U+FFFD: the target is
    /// only ever named in a message.
    public func linkTarget(_ path: String) -> String? {
        var size = 256
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let count = readlink(path, &buffer, size)
            guard count >= 0 else { return nil }
            // A target that filled the buffer may have been cut short: read it again with room to spare.
            if count < size { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            guard size < 1 << 20 else { return nil }
            size *= 4
        }
    }

    /// The names of a directory's entries, sorted. A name that is not valid
    /// UTF-8 makes the folder unreadable (see ``FileName/decoded(_:in:)``).
    public func entries(ofDirectory path: String) throws(SourceReadError) -> [String] {
        guard let directory = opendir(path) else { throw failure(path, errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let name = try FileName.decoded(bytes, in: path)
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    private func failure(_ path: String, _ code: Int32) -> SourceReadError {
        switch code {
        case ENOENT, ENOTDIR: .notFound(path)
        case EISDIR: .isDirectory(path)
        default: .unreadable(path, reason: String(cString: strerror(code)))
        }
    }
}

/// `read(2)`, named apart from the `read` method above.
@inline(__always)
private func Glibc_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.read(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.read(descriptor, buffer, count)
    #else
    Glibc.read(descriptor, buffer, count)
    #endif
}
