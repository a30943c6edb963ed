import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// The synced folder keeps one record per transaction (`<device>.records`),
/// reads and migrates the one-per-product files of version 1
/// (`<device>.json`), keeps spends, and shares a folder with a device still
/// running the version-1 code.
@Suite struct SyncedRecordsMigrationTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    static let later = Date(timeIntervalSince1970: 1_700_000_100.5)

    static func coins(_ transaction: String, quantity: Int? = nil, date: Date = date) -> StoredRecord {
        StoredRecord(strategy: .icloud, productID: "com.example.coins", value: .flag, transactionID: transaction,
                     purchaseDate: date, quantity: quantity)
    }

    /// A version-1 device file as version 1 of `SyncedKeyValueStore` wrote it
    /// (through `FileKeyValueStore`, one record per product), byte for byte.
    static let versionOneFile = """
        {
          "records" : {
            "com.example.coins" : {
              "kind" : "flag",
              "product" : "com.example.coins",
              "purchaseDate" : 1700000000.25,
              "strategy" : "icloud",
              "transaction" : "1000000001"
            },
            "com.example.pro" : {
              "kind" : "flag",
              "product" : "com.example.pro",
              "purchaseDate" : 1700000000.25,
              "strategy" : "icloud",
              "transaction" : "1000000002"
            }
          },
          "version" : 1
        }
        """

    @Test func twoPurchasesOfOneProductOnOneDeviceAreTwoRecords() async throws {
        try await RecordStoreTests.withFolder { folder in
            let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
            try await phone.keep(Self.coins("1", quantity: 2))
            try await phone.keep(Self.coins("2", quantity: 1, date: Self.later))
            let pad = SyncedKeyValueStore(folderPath: folder, device: "pad")
            #expect(try await pad.records() == [Self.coins("1", quantity: 2), Self.coins("2", quantity: 1, date: Self.later)])
            // The old file still holds the latest record of the product, for older versions of the app.
            #expect(try await FileKeyValueStore(path: folder + "/phone.json").records() == [Self.coins("2", date: Self.later)])
        }
    }

    @Test func aVersionOneFileIsReadAndMigratedBeforeItsProductsRecordIsReplaced() async throws {
        try await RecordStoreTests.withFolder { folder in
            try Data(Self.versionOneFile.utf8).write(to: URL(fileURLWithPath: folder + "/phone.json"))
            let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
            // Read as it is, before anything is written.
            let before = try await phone.records()
            #expect(before.map(\.transactionID) == ["1000000001", "1000000002"])
            #expect(!FileManager.default.fileExists(atPath: folder + "/phone.records"))
            // A second purchase of the coins replaces their record in the old file; the first stays in the new one.
            try await phone.keep(Self.coins("1000000003", quantity: 4, date: Self.later))
            let after = try await phone.records()
            #expect(after.map(\.transactionID) == ["1000000001", "1000000003", "1000000002"])
            #expect(after.first { $0.transactionID == "1000000003" }?.quantity == 4)
            let migrated = try #require(try SyncedRecordsFile.load(folder + "/phone.records"))
            #expect(migrated.records.keys.sorted() == ["1000000001", "1000000002", "1000000003"])
            // The old file is still a version-1 file an older version reads: the latest record per product.
            let old = try KeyValueFile.read(RecordStoreTests.bytes(at: folder + "/phone.json"))
            #expect(old.records.map(\.transactionID) == ["1000000003", "1000000002"])
        }
    }

    @Test func anOldAndANewDeviceSharingAFolderLoseNoRecords() async throws {
        try await RecordStoreTests.withFolder { folder in
            // The old device runs version 1: it writes `old.json` only, one record per product.
            let old = FileKeyValueStore(path: folder + "/old.json")
            let new = SyncedKeyValueStore(folderPath: folder, device: "new")
            try await old.keep(Self.coins("1"))
            try await new.keep(Self.coins("2", quantity: 1))
            try await new.keep(Self.coins("3", quantity: 2, date: Self.later))
            // The new device sees every purchase, its own and the old device's.
            #expect(try await new.records().map(\.transactionID) == ["1", "2", "3"])
            // What version 1 reads (every `*.json`, one record per product) still reads, and holds what it did.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
            #expect(names == ["new.json", "old.json"])
            var seen: [String] = []
            for name in names {
                seen += try KeyValueFile.read(RecordStoreTests.bytes(at: folder + "/" + name)).records.map(\.transactionID)
            }
            #expect(seen == ["3", "1"])
        }
    }

    @Test func spendsAreKeptOncePerKeyAndReadFromEveryDevice() async throws {
        try await RecordStoreTests.withFolder { folder in
            let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
            let pad = SyncedKeyValueStore(folderPath: folder, device: "pad")
            let sword = SpendRecord(key: "sword", balance: "coins", amount: 100, date: Self.date)
            let shield = SpendRecord(key: "shield", balance: "coins", amount: 30, date: Self.later)
            try await phone.keepSpend(sword)
            let written = await phone.writeCount
            try await phone.keepSpend(sword)
            #expect(await phone.writeCount == written, "the same spend again writes nothing")
            try await pad.keepSpend(shield)
            // The same key on the other device is the same spend.
            try await pad.keepSpend(SpendRecord(key: "sword", balance: "coins", amount: 100, date: Self.later))
            #expect(try await phone.spends() == [shield, sword])
            #expect(try await pad.spends() == [shield, sword])
        }
    }

    @Test func aKeyKeptForAnotherSpendIsRefusedNamingIt() async throws {
        try await RecordStoreTests.withFolder { folder in
            let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
            try await phone.keepSpend(SpendRecord(key: "sword", balance: "coins", amount: 100, date: Self.date))
            let error = try #require(await RecordStoreTests.failure {
                try await phone.keepSpend(SpendRecord(key: "sword", balance: "coins", amount: 90, date: Self.date))
            })
            #expect(!error.isTransient)
            #expect(error.reason.contains("'sword'") && error.reason.contains("100 coins"), "\(error.reason)")
        }
    }

    static let corruptRecordsFiles: [(text: String, says: String)] = [
        (#"{"format": "storekeeper-synced-records", "version": 3, "records": {}, "spends": {}}"#, "version: 3"),
        (#"{"format": "something-else", "version": 2, "records": {}, "spends": {}}"#, "format: 'something-else'"),
        (#"{"format": "storekeeper-synced-records", "version": 2, "records": {}, "spends": {"k": {"balance": "coins", "amount": 0, "date": 1}}}"#,
         "spends.k.amount"),
        (#"{"format": "storekeeper-synced-records", "version": 2, "records": {"9": {"record": {"kind": "flag", "product": "p", "purchaseDate": 1, "strategy": "icloud", "transaction": "8"}}}, "spends": {}}"#,
         "records.9: holds transaction '8'"),
    ]

    @Test(arguments: corruptRecordsFiles.indices)
    func aCorruptRecordsFileFailsPermanentlyNamingItAndWhatIsWrong(_ index: Int) async throws {
        let corrupt = Self.corruptRecordsFiles[index]
        try await RecordStoreTests.withFolder { folder in
            let path = folder + "/pad.records"
            try Data(corrupt.text.utf8).write(to: URL(fileURLWithPath: path))
            let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
            let error = try #require(await RecordStoreTests.failure { _ = try await phone.records() })
            #expect(!error.isTransient)
            #expect(error.reason.contains(path) && error.reason.contains(corrupt.says), "\(error.reason)")
            #expect(try RecordStoreTests.bytes(at: path) == Array(corrupt.text.utf8), "left as it is")
        }
    }
}
