import StorekeeperContract
public import Foundation
import StorekeeperCore
public import StorekeeperRuntime

/// The `icloud` strategy, standing in for iCloud's key-value store: a folder
/// that the user's devices share, in which each device writes only its own
/// files and reads everyone's.
///
/// Each device keeps **one record per transaction** in `<device>.records`
/// (a `SyncedRecordsFile`, written atomically and durably), with the spends
/// made on it (``keepSpend(_:)``), so that another device counts every
/// purchase of a consumable, and subtracts what was spent. ``records()``
/// returns every device's records, one per transaction id: a transaction
/// kept by two devices (or in both of one device's files) counts once.
///
/// **Version 1 of the folder** kept one record per product, in
/// `<device>.json` (a ``FileKeyValueStore`` file), the latest purchase
/// winning. This version reads those files too, and goes on writing its own
/// (the latest record per product, as before) beside `<device>.records`, so
/// that a device still running an older version of the app loses nothing
/// it could see before; an older version reads only names ending in
/// `.json`, so it skips the new files. A device's first ``keep(_:)`` or
/// ``keepSpend(_:)`` migrates: the records of its `<device>.json` go into its
/// new `<device>.records` before anything else is written, so that no
/// purchase the old file held is lost when its product's record is replaced
/// there. The old file is never removed.
///
/// Two stores with the same folder and different device names stand for two
/// devices of the same user. Names in the folder that end in neither `.json`
/// nor `.records`, hidden names (starting with `.`, such as writes in
/// progress) and folders are ignored; a device file that cannot be read or is
/// corrupt makes ``records()`` and ``spends()`` fail permanently, naming it.
public actor SyncedKeyValueStore: SpendRecordStore {
    /// The shared folder's path.
    public nonisolated let folder: String
    /// This device's name: its files are `<folder>/<device>.records` and `<folder>/<device>.json`.
    public nonisolated let device: String
    /// This device's version-1 file, written for older versions of the app.
    private let legacy: FileKeyValueStore
    /// Why `device` cannot name a file, if it cannot.
    private let deviceProblem: String?
    /// Writes made to `<device>.records`, for tests.
    private var recordsWrites = 0

    /// The suffix of a device's version-2 file.
    static let recordsSuffix = ".records"
    /// The suffix of a device's version-1 file.
    static let legacySuffix = ".json"

    /// A store for `device` in the shared folder at the file URL `folder`.
    ///
    /// A device name must not be empty, start with `.` or contain `/`;
    /// ``keep(_:)`` fails permanently for one that does.
    public init(folder: URL, device: String) {
        self.init(folderPath: folder.path, device: device)
    }

    /// A store for `device` in the shared folder at `folderPath`.
    public init(folderPath: String, device: String) {
        folder = folderPath
        self.device = device
        legacy = FileKeyValueStore(path: "\(folderPath)/\(device)\(Self.legacySuffix)")
        deviceProblem = device.isEmpty || device.hasPrefix(".") || device.contains("/") || device.contains("\0")
            ? "the device name '\(device)' cannot name a file in \(folderPath): it must not be empty, start with '.' or contain '/'"
            : nil
    }

    /// This device's version-2 file.
    private var recordsPath: String { "\(folder)/\(device)\(Self.recordsSuffix)" }

    /// Writes made to this device's files, for tests.
    var writeCount: Int {
        get async { await recordsWrites + legacy.writeCount }
    }

    /// Keeps `record` in this device's files: under its transaction in
    /// `<device>.records`, and as its product's record in `<device>.json`.
    ///
    /// - Throws: A permanent `StepFailure` when the device name cannot name a
    ///   file or one of this device's files is corrupt; a transient one when
    ///   the disk is full.
    public func keep(_ record: StoredRecord) async throws(StepFailure) {
        if let deviceProblem { throw .permanent(deviceProblem) }
        let entry = try SyncedRecordsFile.entry(record)
        var file = try ownFile()
        if file.records[record.transactionID] != entry {
            file.records[record.transactionID] = entry
            try write(file)
        }
        // After the new file, so that a crash between the two loses nothing the old one held.
        try await legacy.keep(record)
    }

    /// Keeps `spend` in this device's `<device>.records`.
    ///
    /// - Throws: A permanent `StepFailure` when the device name cannot name a
    ///   file, this device's file is corrupt, or it holds another spend under
    ///   the same key; a transient one when the disk is full.
    public func keepSpend(_ spend: SpendRecord) async throws(StepFailure) {
        if let deviceProblem { throw .permanent(deviceProblem) }
        let form = try SyncedRecordsFile.spend(spend)
        var file = try ownFile()
        if let kept = file.spends[spend.key] {
            guard kept.balance != form.balance || kept.amount != form.amount else { return }
            throw .permanent("the spend key '\(spend.key)' is kept already for \(kept.amount) \(kept.balance), not \(spend.amount) \(spend.balance)")
        }
        file.spends[spend.key] = form
        try write(file)
    }

    /// Every device's records, one per transaction, sorted by product and
    /// transaction id.
    ///
    /// - Throws: A permanent `StepFailure` naming the folder or the device
    ///   file that cannot be read or is corrupt.
    public func records() async throws(StepFailure) -> [StoredRecord] {
        var chosen: [String: (record: StoredRecord, device: String)] = [:]
        for (device, files) in try deviceFiles() {
            for record in try Self.deviceRecords(folder: folder, device: device, files: files).values {
                if let current = chosen[record.transactionID], !Self.wins(record, of: device, over: current.record, of: current.device) {
                    continue
                }
                chosen[record.transactionID] = (record, device)
            }
        }
        return chosen.values.map(\.record).sorted {
            ($0.productID, $0.transactionID) < ($1.productID, $1.transactionID)
        }
    }

    /// Every device's spends, one per key, sorted by key. A key two devices
    /// kept is one spend: the earlier one (then the smaller device name) is it.
    ///
    /// - Throws: A permanent `StepFailure` naming the folder or the device
    ///   file that cannot be read or is corrupt.
    public func spends() async throws(StepFailure) -> [SpendRecord] {
        var chosen: [String: (spend: SpendRecord, device: String)] = [:]
        for (device, files) in try deviceFiles() where files.contains(Self.recordsSuffix) {
            guard let loaded = try SyncedRecordsFile.load("\(folder)/\(device)\(Self.recordsSuffix)") else { continue }
            for spend in loaded.spends.values {
                if let current = chosen[spend.key], (current.spend.date, current.device) <= (spend.date, device) {
                    continue
                }
                chosen[spend.key] = (spend, device)
            }
        }
        return chosen.keys.sorted().compactMap { chosen[$0]?.spend }
    }

    /// One device's records by transaction: its version-2 file's, and those
    /// of its version-1 file the other does not hold (an older version of
    /// the app on that device may have kept them since it migrated).
    private static func deviceRecords(folder: String, device: String, files: Set<String>) throws(StepFailure) -> [String: StoredRecord] {
        var records: [String: StoredRecord] = [:]
        if files.contains(recordsSuffix) {
            records = try SyncedRecordsFile.load("\(folder)/\(device)\(recordsSuffix)")?.records ?? [:]
        }
        guard files.contains(legacySuffix) else { return records }
        for record in try FileKeyValueStore.load("\(folder)/\(device)\(legacySuffix)").records where records[record.transactionID] == nil {
            records[record.transactionID] = record
        }
        return records
    }

    /// Which of two records of one transaction every device picks: the one
    /// that knows its quantity, then the greater device name (by UTF-8 bytes).
    private static func wins(_ candidate: StoredRecord, of device: String, over current: StoredRecord, of currentDevice: String) -> Bool {
        if (candidate.quantity == nil) != (current.quantity == nil) { return candidate.quantity != nil }
        return currentDevice.utf8.lexicographicallyPrecedes(device.utf8)
    }

    /// This device's version-2 file, with every record of its version-1 file
    /// it does not hold yet: the migration, done before each write.
    private func ownFile() throws(StepFailure) -> SyncedRecordsFile {
        var file = try SyncedRecordsFile.load(recordsPath)?.file ?? .empty
        let old = try FileKeyValueStore.load(legacy.path)
        for record in old.records where file.records[record.transactionID] == nil {
            guard let entry = old.entries[record.productID] else { continue }
            file.records[record.transactionID] = SyncedRecordsFile.Entry(record: entry, quantity: nil)
        }
        return file
    }

    private func write(_ file: SyncedRecordsFile) throws(StepFailure) {
        try AtomicFile.replace(recordsPath, with: ContractCoding.encodeForStore(file, pretty: true))
        recordsWrites += 1
    }

    /// The devices with a file in the folder, sorted by name, each with the
    /// suffixes of its files; none when there is no folder.
    private func deviceFiles() throws(StepFailure) -> [(device: String, files: Set<String>)] {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        guard files.fileExists(atPath: folder, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else {
            throw .permanent("the synced records folder \(folder) is not a folder")
        }
        let names: [String]
        do {
            names = try files.contentsOfDirectory(atPath: folder)
        } catch {
            throw .permanent("cannot list the synced records folder \(folder): \(error.localizedDescription)")
        }
        var devices: [String: Set<String>] = [:]
        for name in names where !name.hasPrefix(".") {
            guard let suffix = [Self.recordsSuffix, Self.legacySuffix].first(where: { name.hasSuffix($0) && name.count > $0.count }) else {
                continue
            }
            var isSubfolder: ObjCBool = false
            guard files.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isSubfolder), !isSubfolder.boolValue else { continue }
            devices[String(name.dropLast(suffix.count)), default: []].insert(suffix)
        }
        return devices.keys.sorted().compactMap { device in devices[device].map { (device, $0) } }
    }
}
