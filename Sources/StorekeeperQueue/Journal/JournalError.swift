/// Why the journal could not be opened or written. The database file is
/// never replaced, repaired or deleted on an error: what was committed stays
/// where it was, for the app (or a person) to move aside or restore.
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The file cannot be opened or created (a missing folder, no permission).
        case unreadable
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
    public init(path: String, kind: Kind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
