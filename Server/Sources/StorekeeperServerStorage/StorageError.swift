/// Why the storage could not do what it was asked.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database could not answer now (serialization failures or deadlocks
    /// past the retries, a lost connection, a busy database): the route answers
    /// 503 so that the caller tries again.
    case transient(String)
    /// The database's configuration is wrong (a bad URL, a bad path): names what and where.
    case configuration(String)
    /// An argument that can never be stored (an empty key, a non-positive amount): names which.
    case invalidArgument(String)
    /// The database holds a schema newer than this server knows: names both versions.
    case schemaTooNew(found: Int, known: Int)
    /// The database answered something the storage cannot read: names the column.
    case corrupt(String)

    public var description: String {
        switch self {
        case .transient(let why): "the database cannot answer now (\(why)); try again"
        case .configuration(let why): "storage configuration: \(why)"
        case .invalidArgument(let why): "storage: \(why)"
        case let .schemaTooNew(found, known):
            "the database's schema is version \(found), newer than this server's \(known): run a newer server"
        case .corrupt(let why): "storage: unreadable value: \(why)"
        }
    }
}
