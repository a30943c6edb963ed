import StorekeeperCore
import StorekeeperPlatform

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

    /// The journal as the queue opened it: which file, and a descriptor of
    /// it kept to read its header at each check. Released (the descriptor
    /// closed) only after SQLite closed the database: closing a descriptor
    /// of the file drops every POSIX lock this process holds on it.
    struct Opened: Sendable, Equatable {
        var identity: Identity
        let descriptor: Int32
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
        try checkSingleName(path, status)
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
        try checkWriteAheadLog(of: path)
        return true
    }

    /// Throws when the `-shm` beside the journal says its `-wal` holds
    /// commits that the `-wal` no longer has: SQLite would find a missing,
    /// emptied, short or foreign log, discard it, and open the journal as it
    /// was at its last checkpoint, every commit since (transactions the
    /// store has finished) gone without a word.
    ///
    /// The `-shm` (SQLite's WAL index) begins with two copies of a 48-byte
    /// header (https://www.sqlite.org/walformat.html), in the machine's byte
    /// order: `isInit` (byte 12), `szPage` (bytes 14–15, 1 for 65,536),
    /// `mxFrame` (bytes 16–19, the frames of the log that hold commits) and
    /// `aSalt` (bytes 32–39, copied from bytes 16–23 of the log's header).
    /// Only an index whose two copies agree is trusted (SQLite rebuilds one
    /// whose copies differ from the log). A log removed together with the
    /// `-shm` cannot be told from a clean shutdown.
    private static func checkWriteAheadLog(of path: String) throws(JournalError) {
        let real = realPath(path)
        let indexPath = real + "-shm"
        let walPath = real + "-wal"
        guard let index = try readPrefix(indexPath, length: 96), index.count == 96,
              index[0..<48] == index[48..<96], index[12] == 1
        else { return }
        let mxFrame = index.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self) }
        guard mxFrame > 0 else { return }
        let rawPageSize = index.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 14, as: UInt16.self) }
        let pageSize = rawPageSize == 1 ? 65_536 : Int64(rawPageSize)
        let needed = 32 + Int64(mxFrame) * (24 + pageSize)
        func lost(_ what: String) -> JournalError {
            JournalError(path: path, kind: .truncated, message: """
                the journal's write-ahead log \(walPath) \(what), but \(indexPath) says it holds \(mxFrame) frames of commits \
                (\(needed) bytes): opened now, the journal would silently lose every commit since its last checkpoint. \
                The files were left as they are: put back the log as the app left it; or, to accept losing those commits, \
                delete \(indexPath) deliberately
                """)
        }
        guard let wal = try readPrefix(walPath, length: 32) else { throw lost("is missing") }
        var status = stat()
        guard stat(walPath, &status) == 0 else { throw unreadable(walPath, errno) }
        let size = Int64(status.st_size)
        guard size >= needed else { throw lost(size == 0 ? "is empty" : "has only \(size) bytes") }
        guard wal.count == 32, [0x377f_0682, 0x377f_0683].contains(bigEndian(wal, at: 0)), wal[16..<24] == index[32..<40] else {
            throw lost("is not the log this index belongs to (its header does not match)")
        }
    }

    /// `path` with every symbolic link resolved: of the file if it exists,
    /// else of its folder (with the file's name added), else `path` as given.
    /// What keys the journal's lock and locates its `-wal` and `-shm`
    /// (SQLite puts them beside the file a link points to).
    static func realPath(_ path: String) -> String {
        if let resolved = resolve(path) { return resolved }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolvedFolder = resolve(folder) else { return path }
        return (resolvedFolder.hasSuffix("/") ? resolvedFolder : resolvedFolder + "/") + name
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The file at `path` now, opened to be watched; to be released with ``release(_:)``.
    static func watch(_ path: String) throws(JournalError) -> Opened {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            _ = close(descriptor)
            throw unreadable(path, code)
        }
        return Opened(identity: Identity(status), descriptor: descriptor)
    }

    /// Closes the descriptor ``watch(_:)`` opened.
    static func release(_ opened: Opened) {
        _ = close(opened.descriptor)
    }

    /// Throws unless `path` is still the file `opened`, has not shrunk
    /// (SQLite never shrinks the journal: it does not vacuum it) and still
    /// begins with SQLite's header (a file emptied and grown back to its
    /// size, or overwritten, keeps its inode and size: one `pread` of 16
    /// bytes sees it); returns it with the size it has now, the largest seen.
    static func verify(_ path: String, opened: Opened) throws(JournalError) -> Opened {
        var checked = opened
        checked.identity = try verify(path, identity: opened.identity)
        var header = [UInt8](repeating: 0, count: magic.count)
        var got = 0
        repeat { got = header.withUnsafeMutableBytes { pread(opened.descriptor, $0.baseAddress, magic.count, 0) } } while got < 0 && errno == EINTR
        guard got >= 0 else { throw unreadable(path, errno) }
        guard got == magic.count, header == magic else {
            throw JournalError(path: path, kind: .truncated, message: """
                the journal's first bytes are no longer SQLite's header while the queue had it open (emptied and written \
                over by another program?); nothing more is committed to it, so that what remains is not overwritten: stop \
                the app, then restore the journal from a backup
                """)
        }
        return checked
    }

    private static func verify(_ path: String, identity opened: Identity) throws(JournalError) -> Identity {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw unreadable(path, code) }
            throw JournalError(path: path, kind: .replaced, message: """
                the journal was removed while the queue had it open; nothing more is committed, so that no new journal \
                is started by accident: stop the app, then restore the journal from a backup
                """)
        }
        try checkSingleName(path, status)
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

    /// Throws when the journal has a second name (a hard link): the lock is
    /// keyed on a name, so a queue given the other one would take a lock of
    /// its own and write the same file. Refused rather than documented, as a
    /// hard-linked journal is never needed (a backup must be a copy anyway).
    private static func checkSingleName(_ path: String, _ status: stat) throws(JournalError) {
        guard status.st_nlink > 1 else { return }
        throw JournalError(path: path, kind: .hardLinked, message: """
            the journal has \(status.st_nlink) names (hard links to one file), and its lock covers only one name, so two \
            queues could write it at once; nothing was changed: remove the other links (find them with \
            `find / -samefile \(path)`), keeping this one
            """)
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
        guard let header = try readPrefix(path, length: headerLength) else { throw unreadable(path, ENOENT) }
        return header
    }

    /// The first `length` bytes of the file at `path` (fewer if it is
    /// shorter), `nil` if nothing is there. Only for files this process does
    /// not have open through SQLite: closing the descriptor would drop its locks.
    private static func readPrefix(_ path: String, length: Int) throws(JournalError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw unreadable(path, code)
        }
        defer { _ = close(descriptor) }
        return try read(descriptor, length: length, path: path)
    }

    /// The first `length` bytes read through `descriptor` (fewer if the file is shorter).
    private static func read(_ descriptor: Int32, length: Int, path: String) throws(JournalError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        var count = 0
        while count < length {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress.map { $0 + count }, length - count, off_t(count)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw unreadable(path, errno) }
            if got == 0 { break }
            count += got
        }
        return Array(bytes.prefix(count))
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
