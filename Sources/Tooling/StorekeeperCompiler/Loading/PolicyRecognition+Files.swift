public import StorekeeperCatalog
public import StorekeeperCore
import StorekeeperRuntime

/// Recognition of a file on disk, through a catalog source reader: the tooling's
/// side of ``PolicyRecognition`` (the runtime only ever reads policies).
extension PolicyRecognition {
    /// What the file at `path` is, by ``isCompiledPolicy(_:)-([UInt8])``:
    /// read whole when it is at most `limit` bytes, else judged by its
    /// leading bytes. The one rule `validate`, `explain`, `compile` and
    /// `PolicyLoader` share.
    ///
    /// - Throws: Why the file cannot be read (not for its size).
    public static func examine(_ path: String, reader: any SourceReader, limit: Int) throws(SourceReadError) -> Examined {
        do {
            let bytes = try reader.read(path, limit: limit)
            return isCompiledPolicy(bytes) ? .policy(bytes) : .other
        } catch {
            guard case .tooLarge(_, let size, _) = error else { throw error }
            return isCompiledPolicy(try reader.read(path, leading: leadingBytes)) ? .policyTooLarge(size: size) : .other
        }
    }

    /// What ``examine(_:reader:limit:)`` found.
    public enum Examined: Sendable {
        /// A compiled policy, read whole.
        case policy([UInt8])
        /// A compiled policy over the limit, by its leading bytes.
        case policyTooLarge(size: Int)
        /// Not a compiled policy (a catalog, or something else a catalog loader reports).
        case other
    }
}
