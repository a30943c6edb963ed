import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// The `icloud` strategy, standing in for iCloud's key-value store: a folder
/// that the user's devices share, in which each device writes only its own
/// file, `<folder>/<device>.json`, and reads everyone's.
///
/// A device's file is a ``FileKeyValueStore`` file (one record per product,
/// written atomically and durably), so no two devices ever write the same
/// file. ``records()`` merges every device's file: for each product, the
/// record with the latest purchase date wins; on a tie, the greater
/// transaction id, then the greater device name (both compared by their
/// UTF-8 bytes). Every device therefore converges on the same records once
/// it sees the same files.
///
/// Two stores with the same folder and different device names stand for two
/// devices of the same user. Names in the folder that do not end in `.json`,
/// hidden names (starting with `.`, such as writes in progress) and folders
/// are ignored; a device file that cannot be read or is corrupt makes
/// ``records()`` fail permanently, naming it.
public actor SyncedKeyValueStore: RecordStore {
    /// The shared folder's path.
    public nonisolated let folder: String
    /// This device's name: its file is `<folder>/<device>.json`.
    public nonisolated let device: String
    private let own: FileKeyValueStore
    /// Why `device` cannot name a file, if it cannot.
    private let deviceProblem: String?

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
        own = FileKeyValueStore(path: "\(folderPath)/\(device).json")
        deviceProblem = device.isEmpty || device.hasPrefix(".") || device.contains("/") || device.contains("\0")
            ? "the device name '\(device)' cannot name a file in \(folderPath): it must not be empty, start with '.' or contain '/'"
            : nil
    }

    /// Writes made to this device's file, for tests.
    var writeCount: Int {
        get async { await own.writeCount }
    }

    /// Keeps `record` in this device's file, replacing the product's record there.
    ///
    /// - Throws: A permanent `StepFailure` when the device name cannot name a
    ///   file or this device's file is corrupt; a transient one when the disk is full.
    public func keep(_ record: StoredRecord) async throws(StepFailure) {
        if let deviceProblem { throw .permanent(deviceProblem) }
        try await own.keep(record)
    }

    /// Every device's records, merged: one per product.
    ///
    /// - Throws: A permanent `StepFailure` naming the folder or the device
    ///   file that cannot be read or is corrupt.
    public func records() async throws(StepFailure) -> [StoredRecord] {
        var winners: [String: (entry: RecordJSON, record: StoredRecord, device: String)] = [:]
        for name in try deviceFileNames() {
            let device = String(name.dropLast(".json".count))
            let loaded = try FileKeyValueStore.load("\(folder)/\(name)")
            for record in loaded.records {
                guard let entry = loaded.entries[record.productID] else { continue }
                if let current = winners[record.productID],
                   !Self.wins(entry, of: device, over: current.entry, of: current.device) {
                    continue
                }
                winners[record.productID] = (entry, record, device)
            }
        }
        return winners.keys.sorted().compactMap { winners[$0]?.record }
    }

    /// Whether `candidate` from `device` replaces `current` from `currentDevice`:
    /// a total order, so that every device picks the same record.
    private static func wins(_ candidate: RecordJSON, of device: String,
                             over current: RecordJSON, of currentDevice: String) -> Bool {
        if candidate.purchaseDate != current.purchaseDate { return candidate.purchaseDate > current.purchaseDate }
        if candidate.transaction != current.transaction {
            return current.transaction.utf8.lexicographicallyPrecedes(candidate.transaction.utf8)
        }
        return currentDevice.utf8.lexicographicallyPrecedes(device.utf8)
    }

    /// The names of the device files in the folder, sorted; none when there is no folder.
    private func deviceFileNames() throws(StepFailure) -> [String] {
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
        return names.sorted().filter { name in
            guard name.hasSuffix(".json"), name.count > ".json".count, !name.hasPrefix(".") else { return false }
            var isSubfolder: ObjCBool = false
            return files.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isSubfolder) && !isSubfolder.boolValue
        }
    }
}
