/// Replaces a file whole and durably: the one home of this mechanism, for the
/// queue's record files, StoreKit 2's pending purchases and the tools' output
/// files (`--output`).
///
/// The bytes go to a temporary file created beside the target under a
/// random name (`.NAME.<16 hex digits>.tmp`: hidden, and not ending in the
/// target's extension, so readers of the folder skip it), opened with
/// `O_CREAT|O_EXCL|O_NOFOLLOW`, so that a file or a link already at that
/// name is never written through (another name is tried). The file takes the
/// permissions of the file it replaces (a 0600 file stays private), is
/// flushed, renamed over the target, and the folder is flushed: a process
/// killed at any point leaves the old file or the new one, never a mix, and
/// a crash of the machine after `replace` returns keeps the new one.
public enum DurableFile {
    /// Why a replace failed: the step, the path and the C library's error.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The ``action`` of a failure to create the temporary file, whose ``path`` is the folder.
        public static let creatingTemporary = "create a temporary file in"

        /// What was being done: `write`, `flush`, `replace`, `flush the folder`.
        public var action: String
        /// The file or folder it was done to.
        public var path: String
        /// `errno`.
        public var code: Int32
        /// Whether the new file is already in place: only the folder's flush
        /// failed, so the replace is done but may not survive a power loss.
        public var isReplaced: Bool

        /// The C library's words for ``code``.
        public var reason: String { String(cString: strerror(code)) }

        /// `cannot ACTION PATH: REASON`.
        public var description: String { "cannot \(action) \(path): \(reason)" }
    }

    /// Replaces the file at `path` with `bytes`; the folder must exist. On
    /// failure before the rename, the old file, if any, is left as it was.
    ///
    /// - Parameter temporaryName: The temporary file's name, given the
    ///   target's last component (tests plant files and links at it).
    public static func replace(_ path: String, with bytes: [UInt8], temporaryName: (String) -> String = randomTemporaryName) throws(Failure) {
        let folder = self.folder(of: path)
        let name = lastComponent(of: path)
        var temporary = ""
        var descriptor: Int32 = -1
        // A name taken (by chance, or by a planted file or link) is never opened: another is tried, a bounded number of times.
        for _ in 0..<100 {
            temporary = String(decoding: path.utf8.dropLast(name.utf8.count), as: UTF8.self) + temporaryName(name)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw Failure(action: Failure.creatingTemporary, path: folder, code: errno, isReplaced: false) }
        var failure: Failure?
        var existing = stat()
        if lstat(path, &existing) == 0, fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
            failure = Failure(action: "write", path: temporary, code: errno, isReplaced: false)
        }
        if failure == nil, let code = writeAll(bytes, to: descriptor) {
            failure = Failure(action: "write", path: temporary, code: code, isReplaced: false)
        }
        // Flushed before the rename, so the name never points at bytes still only in memory.
        if failure == nil, !flush(descriptor) { failure = Failure(action: "flush", path: temporary, code: errno, isReplaced: false) }
        if close(descriptor) != 0, failure == nil { failure = Failure(action: "write", path: temporary, code: errno, isReplaced: false) }
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(action: "replace", path: path, code: errno, isReplaced: false) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // The rename is a change to the folder, durable once the folder is flushed.
        try flushFolder(folder, replaced: true)
    }

    /// Flushes a folder, so that a file created, renamed or linked in it is
    /// there after a power loss.
    public static func flushFolder(_ folder: String) throws(Failure) {
        try flushFolder(folder, replaced: false)
    }

    private static func flushFolder(_ folder: String, replaced: Bool) throws(Failure) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(action: "open the folder", path: folder, code: errno, isReplaced: replaced) }
        defer { _ = close(descriptor) }
        guard flush(descriptor) else { throw Failure(action: "flush the folder", path: folder, code: errno, isReplaced: replaced) }
    }

    /// `.NAME.<16 hex digits>.tmp`, the name shortened so that it stays within a file name's 255 bytes.
    public static func randomTemporaryName(for name: String) -> String {
        let stem = String(decoding: name.utf8.prefix(200), as: UTF8.self)
        return ".\(stem).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
    }

    /// Flushes a file's data to the disk itself: on Apple platforms `fsync`
    /// only reaches the drive's cache, `F_FULLFSYNC` the medium.
    public static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        while true {
            if fsync(descriptor) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a name at the
    /// root. Split at the last `/` byte (never part of a longer UTF-8 sequence).
    public static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(decoding: path.utf8[..<slash], as: UTF8.self)
    }

    /// The last component of `path`.
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(decoding: path.utf8[path.utf8.index(after: slash)...], as: UTF8.self)
    }

    /// Writes every byte, retrying after signals; the error code, or nil.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += count
        }
        return nil
    }
}
