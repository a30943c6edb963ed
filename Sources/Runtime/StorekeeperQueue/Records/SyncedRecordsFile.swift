import StorekeeperContract
import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// A device's file in a synced records folder, `<device>.records`: every
/// record the device kept, by transaction id, and every spend, by key.
///
/// Version 1 of the synced folder kept one record per product in
/// `<device>.json` (a ``FileKeyValueStore`` file), so a second purchase of a
/// product replaced the first: fine for ownership, not for a consumable's
/// balance, which counts every purchase. Version 2 keeps one entry per
/// transaction, in a file whose name a version-1 reader skips (it reads only
/// names ending in `.json`), so that an older version of the app on another
/// device goes on reading the folder.
///
/// ```json
/// {
///   "format" : "storekeeper-synced-records",
///   "records" : {
///     "1000000001" : {
///       "quantity" : 2,
///       "record" : { "kind" : "flag", "product" : "com.example.coins", "purchaseDate" : 1700000000.5,
///                    "strategy" : "icloud", "transaction" : "1000000001" }
///     }
///   },
///   "spends" : {
///     "sword-7f3a" : { "amount" : 100, "balance" : "coins", "date" : 1700000100 }
///   },
///   "version" : 2
/// }
/// ```
///
/// `record` is the record object of docs/server-contract.md; `quantity`,
/// when present, is how many units the transaction bought.
struct SyncedRecordsFile: Codable, Hashable {
    /// Written in `format`, to tell this file from another JSON file.
    static let formatName = "storekeeper-synced-records"
    /// The only version this build reads and writes.
    static let currentVersion = 2

    var format: String
    var version: Int
    /// Entries by transaction id.
    var records: [String: Entry]
    /// Spends by key.
    var spends: [String: Spend]

    /// A record and how many units its transaction bought.
    struct Entry: Codable, Hashable {
        var record: RecordObject
        var quantity: Int?
    }

    /// A spend: the balance, the amount, and when (seconds since 1970).
    struct Spend: Codable, Hashable {
        var balance: String
        var amount: Int
        var date: Double
    }

    /// A file's contents, checked, with the records and spends they describe.
    struct Loaded {
        var file: SyncedRecordsFile
        var records: [String: StoredRecord]
        var spends: [String: SpendRecord]
    }

    /// An empty file.
    static var empty: SyncedRecordsFile {
        SyncedRecordsFile(format: formatName, version: currentVersion, records: [:], spends: [:])
    }

    private struct Probe: Decodable {
        var format: String?
        var version: Int?
    }

    /// The checked contents of `bytes`.
    static func read(_ bytes: [UInt8]) throws(ContractError) -> Loaded {
        // Format and version first, so that a newer file says so rather than failing on a member it added.
        if let probe = try? ContractCoding.decode(Probe.self, from: bytes) {
            if let format = probe.format, format != formatName {
                throw ContractError("format: '\(format)' is not '\(formatName)'")
            }
            if let version = probe.version, version != currentVersion {
                throw ContractError("version: \(version) is a format this version of Storekeeper cannot read (it reads \(currentVersion))")
            }
        }
        let file = try ContractCoding.decode(SyncedRecordsFile.self, from: bytes)
        var records: [String: StoredRecord] = [:]
        for key in file.records.keys.sorted() {
            guard let entry = file.records[key] else { continue }
            guard entry.record.transaction == key else {
                throw ContractError("records.\(key): holds transaction '\(entry.record.transaction)', not '\(key)'")
            }
            if let quantity = entry.quantity, quantity < 1 {
                throw ContractError("records.\(key).quantity: \(quantity) is not a quantity (1 or more)")
            }
            do throws(ContractError) {
                var record = try entry.record.record()
                record.quantity = entry.quantity
                records[key] = record
            } catch {
                throw ContractError("records.\(key).record: \(error)")
            }
        }
        var spends: [String: SpendRecord] = [:]
        for key in file.spends.keys.sorted() {
            guard let spend = file.spends[key] else { continue }
            guard !key.isEmpty else { throw ContractError("spends: a spend has an empty key") }
            guard !spend.balance.isEmpty else { throw ContractError("spends.\(key).balance: empty") }
            guard spend.amount >= 1 else { throw ContractError("spends.\(key).amount: \(spend.amount) is not an amount (1 or more)") }
            guard spend.date.isFinite else { throw ContractError("spends.\(key).date: not a finite number") }
            spends[key] = SpendRecord(key: key, balance: spend.balance, amount: spend.amount, date: Date(timeIntervalSince1970: spend.date))
        }
        return Loaded(file: file, records: records, spends: spends)
    }

    /// The file at `path`, checked; `nil` when nothing is there.
    static func load(_ path: String) throws(StepFailure) -> Loaded? {
        guard let bytes = try AtomicFile.contents(of: path) else { return nil }
        do throws(ContractError) {
            return try read(bytes)
        } catch {
            throw .permanent("the synced records file \(path) is not valid: \(error); it was left as it is (repair or remove it)")
        }
    }

    /// The entry for `record`; refuses what the record object cannot say.
    static func entry(_ record: StoredRecord) throws(StepFailure) -> Entry {
        if let quantity = record.quantity, quantity < 1 {
            throw .permanent("the record of transaction '\(record.transactionID)' has quantity \(quantity); a quantity is 1 or more")
        }
        return Entry(record: try RecordObject(record), quantity: record.quantity)
    }

    /// The form of `spend` in the file; refuses a spend that cannot be read back.
    static func spend(_ spend: SpendRecord) throws(StepFailure) -> Spend {
        guard !spend.key.isEmpty, !spend.balance.isEmpty, spend.amount >= 1 else {
            throw .permanent("a spend needs a key, a balance and an amount of 1 or more; got key '\(spend.key)', balance '\(spend.balance)', amount \(spend.amount)")
        }
        let date = spend.date.timeIntervalSince1970
        guard date.isFinite else { throw .permanent("the spend '\(spend.key)' has a date that is not finite") }
        return Spend(balance: spend.balance, amount: spend.amount, date: date)
    }
}
