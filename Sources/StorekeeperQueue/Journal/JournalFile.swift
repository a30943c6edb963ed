#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The journal's database file as the file system sees it: checked before
/// SQLite opens it, and watched while the queue has it open.
///
/// SQLite takes an empty file, or one shorter than a page, for a new empty
/// database and writes a schema into it; and it deletes a `-wal` file found
/// beside an empty database. A journal emptied or cut short (a restore that
/// failed, a copy cut off, a full disk, another program) would so become a
/// new journal with every balance and record gone. Only a path where
/// nothing is starts a new journal; anything else must look like a whole
/// database before SQLite sees it.
enum JournalFile {
    /// Which file the queue opened, and the largest size it has seen it have.
    struct Identity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
    }

    /// SQLite's header: its first 16 bytes, and its length.
    private static let magic = Array("SQLite format 3\0".utf8)
    private static let headerLength = 100

    /// Whether a file is at `path` (following a link); throws unless it is a
    /// whole SQLite database by its size and header. Reads the header through
    /// a descriptor of its own: nothing in this process has the database open
    /// yet (the journal's lock is held), so closing it drops no SQLite lock.
    static func exists(_ path: String) throws(JournalError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw unreadable(path, code) }
            var link = stat()
            if lstat(path, &link) == 0 {
                throw JournalError(path: path, kind: .unreadable,
                                   message: "the journal's path is a symbolic link to nothing: point it at the journal, or remove it to start a new one")
            }
            // SQLite would replay a stale log into the new journal.
            if let log = log(of: path) {
                throw JournalError(path: path, kind: .replaced, message: """
                    nothing is at the journal's path, but \(log) is beside it: the journal was removed or moved without \
                    it. Put the journal back; or, to start over, delete \(log) deliberately (it holds the journal's last commits)
                    """)
            }
            return false
        }
        // S_IFMT and S_IFREG by value: the C macros are not imported on every platform.
        guard status.st_mode & 0o170000 == 0o100000 else {
            throw JournalError(path: path, kind: .unreadable, message: "this is not a regular file (a folder?): give the queue the path of a file")
        }
        let size = Int64(status.st_size)
        if size == 0 {
            throw JournalError(path: path, kind: .empty, message: """
                the journal is empty (0 bytes); a journal is never empty, so it was emptied or cut short (a restore or copy \
                that failed, a full disk, another program). It was left as it is and nothing was started in its place: \
                restore it from a backup, or, to start over and lose every balance and record it held, delete it deliberately
                """)
        }
        let header = try readHeader(path, size: size)
        guard header.count == headerLength else {
            throw truncated(path, "it has \(size) bytes, fewer than the \(headerLength)-byte header of any SQLite database")
        }
        guard Array(header.prefix(magic.count)) == magic else {
            throw JournalError(path: path, kind: .notADatabase,
                               message: "this file is not an SQLite database, so not a Storekeeper journal; it was left as it is: give the queue another path, or move the file aside")
        }
        let pageSize = Int64(header[16]) << 8 | Int64(header[17])
        let page = pageSize == 1 ? 65_536 : pageSize
        guard page >= 512, page & (page - 1) == 0 else {
            throw JournalError(path: path, kind: .corrupt,
                               message: "the journal is damaged (its header gives a page size of \(pageSize)); it was left as it is: move it aside or restore it from a backup")
        }
        guard size >= page else { throw truncated(path, "it has \(size) bytes, less than one page of \(page)") }
        // With a `-wal` (or `-journal`) beside it, the database may be
        // mid-checkpoint (its header already counting pages the log still
        // holds): SQLite's recovery and the quick check judge it then.
        if log(of: path) == nil {
            guard size % page == 0 else {
                throw truncated(path, "it has \(size) bytes, not a whole number of \(page)-byte pages")
            }
            let changeCounter = bigEndian(header, at: 24)
            let pages = Int64(bigEndian(header, at: 28))
            // The header's page count is valid only when its "version valid for" matches the change counter.
            if pages > 0, bigEndian(header, at: 92) == changeCounter, size < pages * page {
                throw truncated(path, "it has \(size) bytes, where its header counts \(pages) pages of \(page) bytes (\(pages * page) bytes)")
            }
        }
        return true
    }

    /// Which file is at `path` now.
    static func identity(_ path: String) throws(JournalError) -> Identity {
        var status = stat()
        guard stat(path, &status) == 0 else { throw unreadable(path, errno) }
        return Identity(status)
    }

    /// Throws unless `path` is still the file `opened` and has not shrunk
    /// (SQLite never shrinks the journal: it does not vacuum it); returns
    /// it with the size it has now, the largest seen.
    static func verify(_ path: String, opened: Identity) throws(JournalError) -> Identity {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw unreadable(path, code) }
            throw JournalError(path: path, kind: .replaced, message: """
                the journal was removed while the queue had it open; nothing more is committed, so that no new journal \
                is started by accident: stop the app, then restore the journal from a backup
                """)
        }
        let now = Identity(status)
        guard now.device == opened.device, now.inode == opened.inode else {
            throw JournalError(path: path, kind: .replaced, message: """
                the journal was replaced by another file while the queue had it open; nothing more is committed to either: \
                stop the app, then put back the journal it should use
                """)
        }
        guard now.size >= opened.size else {
            throw JournalError(path: path, kind: .truncated, message: """
                the journal shrank from \(opened.size) to \(now.size) bytes while the queue had it open (cut short by another \
                program?); nothing more is committed to it, so that what remains is not overwritten: stop the app, then \
                restore the journal from a backup
                """)
        }
        return now
    }

    /// The `-wal` or `-journal` file with anything in it beside the database, if any.
    private static func log(of path: String) -> String? {
        ["-wal", "-journal"].map { path + $0 }.first { log in
            var status = stat()
            return stat(log, &status) == 0 && status.st_size > 0
        }
    }

    /// The first `headerLength` bytes of the file (fewer if it is shorter).
    private static func readHeader(_ path: String, size: Int64) throws(JournalError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        defer { _ = close(descriptor) }
        var header = [UInt8](repeating: 0, count: headerLength)
        var count = 0
        while count < headerLength {
            let got = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress.map { $0 + count }, headerLength - count, off_t(count)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw unreadable(path, errno) }
            if got == 0 { break }
            count += got
        }
        return Array(header.prefix(count))
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func truncated(_ path: String, _ what: String) -> JournalError {
        JournalError(path: path, kind: .truncated, message: """
            the journal is cut short (\(what)); it was left as it is and nothing was started in its place: restore it \
            from a backup, or, to start over and lose every balance and record it held, delete it deliberately
            """)
    }

    private static func unreadable(_ path: String, _ code: Int32) -> JournalError {
        JournalError(path: path, kind: .unreadable,
                     message: "the journal cannot be read (\(String(cString: strerror(code)))): check that the app may read and write it")
    }
}

extension JournalFile.Identity {
    init(_ status: stat) {
        self.init(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino),
                  size: Int64(status.st_size))
    }
}
