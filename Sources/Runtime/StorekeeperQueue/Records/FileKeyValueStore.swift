import StorekeeperContract
package import Foundation
import StorekeeperCore
public import StorekeeperRuntime

/// The `user-defaults` strategy: records in one JSON file on the device,
/// which the app chooses, one record per product.
///
/// Keeping a record for a product replaces the one the file held for it;
/// keeping the record the file already holds writes nothing. Every write
/// replaces the whole file atomically and durably (a temporary file in the
/// same folder, flushed, renamed over the file, the folder flushed): a
/// process killed at any point leaves the old file or the new one.
///
/// A missing file holds no records. A file that cannot be read, or is not a
/// records file, makes ``records()`` and ``keep(_:)`` fail permanently with
/// its path and what is wrong, and is never written over, since that would
/// lose the records in it.
///
/// The file holds the record objects of `docs/server-contract.md` by
/// product id:
///
/// ```json
/// {
///   "records" : {
///     "com.example.pro" : {
///       "kind" : "flag",
///       "product" : "com.example.pro",
///       "purchaseDate" : 1700000000.5,
///       "strategy" : "user-defaults",
///       "transaction" : "1000000001"
///     }
///   },
///   "version" : 1
/// }
/// ```
///
/// Use one store per file: the actor orders its own reads and writes, not
/// those of another instance or process.
public actor FileKeyValueStore: RecordStore {
    /// The file's path.
    public nonisolated let path: String
    /// Writes made, so that tests can tell a no-op from a rewrite.
    private(set) var writeCount = 0

    /// A store in the file at `path`, created by the first record kept.
    public init(path: String) {
        self.path = path
    }

    /// A store in the file at the file URL `file`.
    package init(file: URL) {
        self.init(path: file.path)
    }

    /// Keeps `record` as the product's record.
    ///
    /// - Throws: A permanent `StepFailure` when the file cannot be read or
    ///   is corrupt, or the record cannot be written as JSON; a transient one
    ///   when the disk is full.
    public func keep(_ record: StoredRecord) async throws(StepFailure) {
        let entry = try RecordObject(record)
        var entries = try Self.load(path).entries
        // Compared as written, so a record read back and kept again is recognized whatever its dates' last bits.
        guard entries[record.productID] != entry else { return }
        entries[record.productID] = entry
        try AtomicFile.replace(path, with: ContractCoding.encodeForStore(KeyValueFile(version: 1, records: entries), pretty: true))
        writeCount += 1
    }

    /// The file's records, by product id.
    ///
    /// - Throws: A permanent `StepFailure` when the file cannot be read or is corrupt.
    public func records() async throws(StepFailure) -> [StoredRecord] {
        try Self.load(path).records
    }

    /// The records in the file at `path`, checked; none when there is no file.
    static func load(_ path: String) throws(StepFailure) -> KeyValueFile.Loaded {
        guard let bytes = try AtomicFile.contents(of: path) else { return KeyValueFile.Loaded(entries: [:], records: []) }
        do throws(ContractError) {
            return try KeyValueFile.read(bytes)
        } catch {
            throw .permanent("the records file \(path) is not valid: \(error); it was left as it is (repair or remove it)")
        }
    }
}

/// The JSON form of a key-value records file.
struct KeyValueFile: Codable {
    /// The format's version; only 1 exists.
    var version: Int
    /// Record objects by product id.
    var records: [String: RecordObject]

    /// A file's entries and the records they describe, by product id.
    struct Loaded {
        var entries: [String: RecordObject]
        var records: [StoredRecord]
    }

    private struct VersionProbe: Decodable {
        var version: Int?
    }

    /// The checked contents of `bytes`.
    static func read(_ bytes: [UInt8]) throws(ContractError) -> Loaded {
        // The version first, so a newer file says so rather than failing on a member it added.
        if let probe = try? ContractCoding.decode(VersionProbe.self, from: bytes), let version = probe.version, version != 1 {
            throw ContractError("version: \(version) is a format this version of Storekeeper cannot read (it reads 1)")
        }
        let file = try ContractCoding.decode(KeyValueFile.self, from: bytes)
        var records: [StoredRecord] = []
        for key in file.records.keys.sorted() {
            guard let entry = file.records[key] else { continue }
            guard entry.product == key else {
                throw ContractError("records.\(key): holds product '\(entry.product)', not '\(key)'")
            }
            do throws(ContractError) {
                records.append(try entry.record())
            } catch {
                throw ContractError("records.\(key): \(error)")
            }
        }
        return Loaded(entries: file.records, records: records)
    }
}
