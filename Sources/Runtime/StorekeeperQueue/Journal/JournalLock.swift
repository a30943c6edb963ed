import StorekeeperCore
import StorekeeperPlatform

/// The journal's exclusive lock (StorekeeperPlatform's ``FileLock``) on a file beside
/// it (`REAL.lock`, where `REAL` is the journal's real path, symbolic links
/// resolved, so that every path to one journal shares one lock), held open
/// from before the database is opened until the journal is closed. A second queue on the same journal, in another process
/// or in this one, is refused at once instead of racing the first (two
/// writers each trust their own in-memory ledger).
///
/// A file of its own, never the database: POSIX record locks (SQLite's own)
/// belong to the process, and closing any descriptor of the database file
/// would drop them. The lock file is left in place when released: removing
/// it would let two openers lock two different files of one name.
final class JournalLock: Sendable {
    /// The lock file.
    let path: String
    /// The descriptor, or -1 once released.
    private let descriptor: Locked<Int32>

    /// Takes the lock of the journal at `journalPath`, creating the lock file if needed.
    init(journalPath: String) throws(JournalError) {
        let path = JournalFile.realPath(journalPath) + ".lock"
        // A holder that lets go within a second is waited for: a queue in
        // another process just stopping, or a child process this one is
        // starting, which holds a copy of the descriptor until its `exec`.
        let fd: Int32
        do throws(FileLock.Failure) {
            fd = try FileLock.take(path, attempts: Self.attempts, pause: Self.pause)
        } catch .held {
            throw JournalError(path: journalPath, kind: .inUse,
                               message: "the journal is in use by another queue (the lock \(path) is held, by another process or "
                                   + "another TransactionQueue in this one, and was not let go within a second); only one queue may use a journal at a time: "
                                   + "stop and release the other one first")
        } catch .cannotOpen(let code) {
            throw JournalError(path: journalPath, kind: .unreadable,
                               message: "cannot open the journal's lock file \(path) (\(String(cString: strerror(code)))): "
                                   + "the queue needs to create and write it beside the journal")
        } catch {
            throw JournalError(path: journalPath, kind: .unreadable,
                               message: "cannot lock the journal's lock file \(path) (\(error.reason ?? "unknown error"))")
        }
        self.path = path
        descriptor = Locked(fd)
    }

    /// How many times a held lock is tried again, and the pause between tries
    /// in microseconds: a second in all.
    private static let attempts = 200
    private static let pause: UInt32 = 5_000

    /// Throws unless the lock file at ``path`` is still the file this lock
    /// holds: one removed or replaced (by another program, or a person
    /// clearing what looked like a stale file) no longer keeps a second
    /// queue out, so this one must stop committing. Two system calls.
    func verify(journalPath: String) throws(JournalError) {
        try descriptor.withLock { (fd: inout Int32) throws(JournalError) in
            guard fd >= 0 else { return }
            var held = stat()
            var named = stat()
            guard fstat(fd, &held) == 0 else { return }
            if lstat(path, &named) == 0, named.st_dev == held.st_dev, named.st_ino == held.st_ino { return }
            throw JournalError(path: journalPath, kind: .inUse, message: """
                the journal's lock file \(path) was removed or replaced while this queue held it, so another queue could \
                open the journal too; nothing more is committed: stop the app (and any other using the journal), then start it again
                """)
        }
    }

    /// Releases the lock (closing the file); later calls do nothing.
    func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
        }
    }

    deinit {
        release()
    }
}
