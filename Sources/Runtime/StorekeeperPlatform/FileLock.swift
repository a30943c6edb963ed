/// An exclusive, advisory lock on a file of its own: `flock(LOCK_EX |
/// LOCK_NB)`, the one home of this mechanism, for the journal's lock and
/// `storekeeper simulate`'s session lock.
///
/// The lock file is opened with `O_NOFOLLOW` (a link planted at its name
/// must not make the caller create or lock another file) and created when
/// missing; it is never removed, since removing it would let two openers lock
/// two different files of one name. The lock is held as long as the returned
/// descriptor is open.
public enum FileLock {
    /// Why the lock was not taken.
    public enum Failure: Error, Sendable, Equatable {
        /// Another holder has it, and did not let go within the wait.
        case held
        /// The lock file could not be opened or created: `errno`.
        case cannotOpen(Int32)
        /// `flock` failed for another reason: `errno`.
        case cannotLock(Int32)

        /// The C library's words for the error, when there is one.
        public var reason: String? {
            switch self {
            case .held: nil
            case let .cannotOpen(code), let .cannotLock(code): String(cString: strerror(code))
            }
        }
    }

    /// Takes the lock on `path`, trying `attempts` more times `pause`
    /// microseconds apart while another holds it; the open descriptor.
    public static func take(_ path: String, attempts: Int = 0, pause: UInt32 = 5_000) throws(Failure) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw .cannotOpen(errno) }
        var result: Int32 = -1
        var code: Int32 = 0
        for attempt in 0...max(0, attempts) {
            if attempt > 0 { usleep(pause) }
            repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            code = errno
            if result == 0 || code != EWOULDBLOCK { break }
        }
        guard result == 0 else {
            close(descriptor)
            throw code == EWOULDBLOCK ? .held : .cannotLock(code)
        }
        return descriptor
    }
}
