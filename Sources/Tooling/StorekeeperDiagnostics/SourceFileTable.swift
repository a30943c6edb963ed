import StorekeeperCore

/// Every source file path seen by the process, each stored once and named by
/// a number.
///
/// Source ranges name their file by this number instead of holding a
/// `String`: a catalog has hundreds of thousands of located values, and a
/// `String` in each would be reference counted on every copy (an atomic
/// operation) and double the size of small values. The table only grows (one
/// entry per distinct path, a few dozen bytes each) and is safe to use from
/// any thread.
public enum SourceFileTable {
    private struct Storage {
        var paths: [String] = []
        var ids: [String: UInt32] = [:]
    }

    private static let storage = Locked(Storage())

    /// The number that names `path`, assigned on first use.
    public static func id(for path: String) -> UInt32 {
        storage.withLock { storage in
            if let id = storage.ids[path] { return id }
            let id = UInt32(storage.paths.count)
            storage.paths.append(path)
            storage.ids[path] = id
            return id
        }
    }

    /// The path a number names.
    public static func path(for id: UInt32) -> String {
        storage.withLock { storage in
            Int(id) < storage.paths.count ? storage.paths[Int(id)] : "<unknown file>"
        }
    }
}
