/// Why the journal could not be opened or written. The database file is
/// never replaced, repaired or deleted on an error: what was committed stays
/// where it was, for the app (or a person) to move aside or restore.
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The file cannot be opened or created (a missing folder, no permission).
        case unreadable
        /// Another queue, in this process or another, has the journal open;
        /// or the lock file of a running queue was removed or replaced, so
        /// that another queue could open it.
        case inUse
        /// The journal has more than one name (hard links), which its lock cannot cover.
        case hardLinked
        /// The file exists but holds no journal: it has no bytes, or is an
        /// SQLite database with no tables. Only a path where nothing is
        /// starts a new journal.
        case empty
        /// The file is shorter than a database, or than its own header says,
        /// or it shrank while the queue had it open.
        case truncated
        /// The file was removed, or another put in its place, while the queue
        /// had it open; or it is missing but its `-wal` is still beside it.
        case replaced
        /// The queue was stopped, which closed its journal.
        case closed
        /// The file is not an SQLite database.
        case notADatabase
        /// The database is damaged.
        case corrupt
        /// The database belongs to something else, or to a newer journal version.
        case foreign
        /// The file can be read but not written.
        case readOnly
        /// Reading or writing failed (disk full, I/O error).
        case io
    }

    /// The database file.
    public var path: String
    /// What went wrong.
    public var kind: Kind
    /// What went wrong, in a sentence, with what to do.
    public var message: String

    /// Creates an error.
    package init(path: String, kind: Kind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
