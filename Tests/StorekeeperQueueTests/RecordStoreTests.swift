import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperSimulatedStore
import StorekeeperRuntime
import Testing
import StorekeeperTestSupport

/// The record stores: the key-value file, the synced folder, and the server
/// client against ``ServerContractTestDouble``.
@Suite struct RecordStoreTests {
    // Dates exact in binary, so that they survive seconds-since-1970 unchanged.
    static let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    static let later = Date(timeIntervalSince1970: 1_700_000_100.5)

    /// One record of every value kind, with and without user and expiration.
    static let samples: [StoredRecord] = [
        StoredRecord(strategy: .userDefaults, productID: "com.example.flag", value: .flag, transactionID: "1000000001",
                     purchaseDate: date),
        StoredRecord(strategy: .icloud, productID: "com.example.receipt", value: .receipt([0, 1, 2, 254, 255]),
                     transactionID: "1000000002", applicationUsername: "alice", purchaseDate: date, expirationDate: later),
        StoredRecord(strategy: .server, productID: "com.example.coins", value: .transaction(id: "1000000003", quantity: 5),
                     transactionID: "1000000003", applicationUsername: "bob", purchaseDate: later),
    ]

    static func record(_ product: String, _ transaction: String, _ value: PersistenceRecord.Value = .flag,
                       date: Date = date, user: String? = nil) -> StoredRecord {
        StoredRecord(strategy: .userDefaults, productID: product, value: value, transactionID: transaction,
                     applicationUsername: user, purchaseDate: date)
    }

    /// The failure `body` throws, or `nil` when it succeeds. Untyped, since
    /// closures infer `any Error`; any other error is an issue.
    static func failure(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> StepFailure? {
        do {
            try await body()
            return nil
        } catch let error as StepFailure {
            return error
        } catch {
            Issue.record("expected a StepFailure, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A new empty folder, removed after `body`.
    static func withFolder(_ body: (String) async throws -> Void) async throws {
        let folderURL = try ScratchFolder.create(prefix: "RecordStoreTests")
        defer { ScratchFolder.remove(folderURL) }
        let folder = folderURL.path
        try await body(folder)
    }

    static func bytes(at path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func inode(at path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.intValue
    }
}

// MARK: - FileKeyValueStore

extension RecordStoreTests {
    @Suite struct FileKeyValue {
        @Test func everyKindRoundTripsThroughTheFile() async throws {
            try await withFolder { folder in
                let path = folder + "/records.json"
                let store = FileKeyValueStore(path: path)
                for sample in samples { try await store.keep(sample) }
                let expected = samples.sorted { $0.productID < $1.productID }
                #expect(try await store.records() == expected)
                // A new instance reads what the first wrote.
                #expect(try await FileKeyValueStore(file: URL(fileURLWithPath: path)).records() == expected)
                let text = String(decoding: try bytes(at: path), as: UTF8.self)
                #expect(text.contains("1700000000.25"), "dates are seconds since 1970, as a number")
                #expect(text.contains("\"AAEC/v8=\""), "receipts are Base64")
                // Nothing but the file: the temporary files were renamed.
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["records.json"])
            }
        }

        @Test func keepingAProductAgainReplacesItsRecord() async throws {
            try await withFolder { folder in
                let store = FileKeyValueStore(path: folder + "/records.json")
                let first = record("com.example.pro", "t1")
                let second = record("com.example.pro", "t2", .receipt([9, 9]), date: later)
                let other = record("com.example.other", "t3")
                try await store.keep(first)
                try await store.keep(other)
                try await store.keep(second)
                #expect(try await store.records() == [other, second])
                #expect(await store.writeCount == 3)
            }
        }

        @Test func keepingTheIdenticalRecordWritesNothing() async throws {
            try await withFolder { folder in
                let path = folder + "/records.json"
                let store = FileKeyValueStore(path: path)
                let sample = samples[2]
                try await store.keep(sample)
                let before = try bytes(at: path)
                let inode = try #require(try RecordStoreTests.inode(at: path))
                try await store.keep(sample)
                #expect(await store.writeCount == 1)
                #expect(try RecordStoreTests.inode(at: path) == inode, "a rewrite renames a new file in")
                #expect(try bytes(at: path) == before)
                // A different quantity is a different record: written.
                var changed = sample
                changed.value = .transaction(id: sample.transactionID, quantity: 6)
                try await store.keep(changed)
                #expect(await store.writeCount == 2)
                #expect(try RecordStoreTests.inode(at: path) != inode)
                #expect(try await store.records() == [changed])
            }
        }

        @Test func aMissingFileHoldsNoRecordsAndIsNotCreatedByReading() async throws {
            try await withFolder { folder in
                let path = folder + "/missing/records.json"
                #expect(try await FileKeyValueStore(path: path).records() == [])
                #expect(!FileManager.default.fileExists(atPath: path))
                // Keeping creates the folder.
                let store = FileKeyValueStore(path: path)
                try await store.keep(samples[0])
                #expect(try await store.records() == [samples[0]])
            }
        }

        static let corruptFiles: [String] = [
            "",
            "not json",
            "[1, 2]",
            #"{"version": 1}"#,
            #"{"version": 2, "records": {}}"#,
            #"{"version": 1, "records": {"a": {"product": "b", "transaction": "t", "strategy": "user-defaults", "kind": "flag", "purchaseDate": 1}}}"#,
            #"{"version": 1, "records": {"a": {"product": "a", "transaction": "t", "strategy": "user-defaults", "kind": "gift", "purchaseDate": 1}}}"#,
            #"{"version": 1, "records": {"a": {"product": "a", "transaction": "t", "strategy": "user-defaults", "kind": "receipt", "receipt": "%%%", "purchaseDate": 1}}}"#,
            #"{"version": 1, "records": {"a": {"product": "a", "transaction": "t", "strategy": "user-defaults", "kind": "flag", "purchaseDate": "today"}}}"#,
            #"{"version": 1, "records": {"a": {"product": "a", "transaction": "t", "strategy": "floppy", "kind": "flag", "purchaseDate": 1}}}"#,
        ]

        @Test(arguments: corruptFiles)
        func aCorruptFileFailsPermanentlyAndIsLeftAsItIs(_ contents: String) async throws {
            try await withFolder { folder in
                let path = folder + "/records.json"
                try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
                let store = FileKeyValueStore(path: path)
                let reading = try #require(await failure { _ = try await store.records() })
                #expect(!reading.isTransient)
                #expect(reading.reason.contains(path))
                let keeping = try #require(await failure { try await store.keep(samples[0]) })
                #expect(!keeping.isTransient)
                #expect(keeping.reason.contains(path))
                #expect(try bytes(at: path) == Array(contents.utf8))
                #expect(await store.writeCount == 0)
            }
        }

        @Test func aCorruptFileSaysWhatIsWrong() async throws {
            try await withFolder { folder in
                let path = folder + "/records.json"
                try Data(Self.corruptFiles[8].utf8).write(to: URL(fileURLWithPath: path))
                let error = try #require(await failure { _ = try await FileKeyValueStore(path: path).records() })
                #expect(error.reason.contains("records.a.purchaseDate: expected a number"), "\(error.reason)")
            }
        }

        @Test func aFolderWhereTheFileShouldBeFailsPermanently() async throws {
            try await withFolder { folder in
                let error = try #require(await failure { _ = try await FileKeyValueStore(path: folder).records() })
                #expect(!error.isTransient)
                #expect(error.reason.contains(folder))
            }
        }

        @Test func aTransactionRecordHoldingAnotherTransactionIsRefused() async throws {
            try await withFolder { folder in
                let path = folder + "/records.json"
                let store = FileKeyValueStore(path: path)
                let error = try #require(await failure {
                    try await store.keep(record("com.example.coins", "t1", .transaction(id: "t2", quantity: 1)))
                })
                #expect(!error.isTransient)
                #expect(!FileManager.default.fileExists(atPath: path))
            }
        }
    }
}

// MARK: - SyncedKeyValueStore

extension RecordStoreTests {
    @Suite struct SyncedKeyValue {
        @Test func twoDevicesSeeEachOthersRecords() async throws {
            try await withFolder { folder in
                let phone = SyncedKeyValueStore(folder: URL(fileURLWithPath: folder), device: "phone")
                let pad = SyncedKeyValueStore(folderPath: folder, device: "pad")
                try await phone.keep(samples[0])
                try await pad.keep(samples[1])
                let expected = [samples[0], samples[1]].sorted { $0.productID < $1.productID }
                #expect(try await phone.records() == expected)
                #expect(try await pad.records() == expected)
                // Each device wrote only its own files: the records by transaction, and the old one by product.
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                    == ["pad.json", "pad.records", "phone.json", "phone.records"])
                #expect(try await FileKeyValueStore(path: folder + "/phone.json").records() == [samples[0]])
            }
        }

        /// Each case: what the phone and the pad keep, and what every device reads.
        static let conflicts: [(phone: StoredRecord, pad: StoredRecord, read: [StoredRecord])] = [
            // Two purchases of one product are two records, whichever device kept them.
            (record("p", "a", date: later), record("p", "b", date: date), [record("p", "a", date: later), record("p", "b", date: date)]),
            // One transaction kept by both devices is one record: the greater device name's ("phone" > "pad").
            (record("p", "a", .flag), record("p", "a", .receipt([1])), [record("p", "a", .flag)]),
        ]

        @Test(arguments: conflicts.indices)
        func devicesConvergeOnTheSameRecords(_ index: Int) async throws {
            let conflict = Self.conflicts[index]
            try await withFolder { folder in
                let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
                let pad = SyncedKeyValueStore(folderPath: folder, device: "pad")
                try await phone.keep(conflict.phone)
                try await pad.keep(conflict.pad)
                #expect(try await phone.records() == conflict.read)
                #expect(try await pad.records() == conflict.read)
            }
        }

        @Test func namesThatAreNotDeviceFilesAreIgnored() async throws {
            try await withFolder { folder in
                let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
                try await phone.keep(samples[0])
                for name in ["notes.txt", "phone.json.bak", ".pad.json", ".phone.json.1234.tmp", ".json", ".records", "pad.records.bak", ".pad.records"] {
                    try Data("garbage".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
                }
                for name in ["archive.json", "archive.records"] {
                    try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: false)
                }
                #expect(try await phone.records() == [samples[0]])
            }
        }

        @Test func aCorruptDeviceFileFailsPermanentlyNamingIt() async throws {
            try await withFolder { folder in
                let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
                try await phone.keep(samples[0])
                let broken = folder + "/broken.json"
                try Data("{".utf8).write(to: URL(fileURLWithPath: broken))
                let error = try #require(await failure { _ = try await phone.records() })
                #expect(!error.isTransient)
                #expect(error.reason.contains(broken))
                #expect(try bytes(at: broken) == Array("{".utf8))
            }
        }

        @Test func aMissingFolderHoldsNoRecords() async throws {
            try await withFolder { folder in
                let records = try await SyncedKeyValueStore(folderPath: folder + "/none", device: "phone").records()
                #expect(records == [])
            }
        }

        @Test(arguments: ["", ".hidden", "a/b", "../escape"])
        func aDeviceNameThatCannotNameAFileIsRefused(_ device: String) async throws {
            try await withFolder { folder in
                let store = SyncedKeyValueStore(folderPath: folder + "/shared", device: device)
                let error = try #require(await failure { try await store.keep(samples[0]) })
                #expect(!error.isTransient)
                #expect(!FileManager.default.fileExists(atPath: folder + "/shared"))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
            }
        }

        @Test func keepingTheIdenticalRecordWritesNothing() async throws {
            try await withFolder { folder in
                let phone = SyncedKeyValueStore(folderPath: folder, device: "phone")
                try await phone.keep(samples[1])
                let written = await phone.writeCount
                try await phone.keep(samples[1])
                #expect(written == 2, "the records file and the old file, once each")
                #expect(await phone.writeCount == written)
            }
        }
    }
}

// MARK: - ServerRecordStore

extension RecordStoreTests {
    @Suite struct ServerContract {
        /// The samples as the signed-in user's: a server refuses a record
        /// whose user is someone else.
        static let mine: [StoredRecord] = samples.map { sample in
            var record = sample
            record.applicationUsername = sample.applicationUsername.map { _ in SimulatedServer.defaultUser }
            return record
        }

        @Test func everyKindRoundTripsThroughTheServer() async throws {
            let server = ServerContractTestDouble()
            let store = ServerRecordStore(transport: server)
            for sample in Self.mine { try await store.keep(sample) }
            #expect(server.records == Dictionary(uniqueKeysWithValues: Self.mine.map { ($0.transactionID, $0) }))
            #expect(try await store.records() == Self.mine.sorted { $0.transactionID < $1.transactionID })
            #expect(server.requests.map(\.method) == ["PUT", "PUT", "PUT", "GET"])
            #expect(server.requests.last?.path == "/v1/records")
        }

        @Test func keepingTwiceIsOneRecord() async throws {
            let server = ServerContractTestDouble()
            let store = ServerRecordStore(transport: server)
            try await store.keep(Self.mine[2])
            try await store.keep(Self.mine[2])
            #expect(server.requestCount == 2)
            #expect(server.records.count == 1)
            #expect(try await store.records() == [Self.mine[2]])
        }

        @Test func everySuccessStatusMeansKept() async throws {
            let server = ServerContractTestDouble()
            let store = ServerRecordStore(transport: server)
            for status in [200, 201, 204] {
                server.answerNext(with: ServerResponse(status: status))
                try await store.keep(samples[0])
            }
        }

        @Test func eachUserReadsOnlyTheirOwnRecords() async throws {
            let server = ServerContractTestDouble()
            let store = ServerRecordStore(transport: server)
            let odd = "a&b =+c/é"
            server.signIn(as: "alice")
            try await store.keep(record("p", "t1", user: "alice"))
            server.signIn(as: odd)
            try await store.keep(record("p", "t2", user: odd))
            try await store.keep(record("q", "t3", user: odd))
            try await store.keep(record("q", "t4"))
            #expect(try await store.records().map(\.transactionID) == ["t2", "t3", "t4"])
            #expect(server.requests.last?.path == "/v1/records", "the user is the credential's, never in the path")
            server.signIn(as: "alice")
            #expect(try await store.records().map(\.transactionID) == ["t1"])
            server.signIn(as: "mallory")
            #expect(try await store.records().isEmpty)
            #expect(server.records(of: odd).keys.sorted() == ["t2", "t3", "t4"])
        }

        @Test func aRecordOfAnotherUserIsRefused() async throws {
            let server = ServerContractTestDouble()
            server.signIn(as: "mallory")
            let error = try #require(await failure { try await ServerRecordStore(transport: server).keep(record("p", "t1", user: "alice")) })
            #expect(!error.isTransient)
            #expect(error.reason.contains("PUT /v1/records/t1"), "\(error.reason)")
            #expect(error.reason.contains("HTTP 403, user-mismatch"), "\(error.reason)")
            #expect(server.records(of: "alice").isEmpty && server.records(of: "mallory").isEmpty)
        }

        @Test func withoutACredentialTheServerAnswers401AndTheStoreWaits() async throws {
            let server = ServerContractTestDouble()
            server.signIn(as: nil)
            let store = ServerRecordStore(transport: server)
            let error = try #require(await failure { try await store.keep(samples[0]) })
            #expect(error.isTransient, "401 waits for a credential")
            #expect(error.reason.contains("HTTP 401, unauthenticated"), "\(error.reason)")
            server.signIn(as: "alice")
            try await store.keep(samples[0])
            #expect(server.records == [samples[0].transactionID: samples[0]])
        }

        @Test(arguments: [(401, true), (408, true), (429, true), (500, true), (503, true), (599, true),
                          (400, false), (403, false), (404, false), (409, false), (422, false), (302, false)])
        func statusesMapToTransientOrPermanent(_ status: Int, _ transient: Bool) async throws {
            let server = ServerContractTestDouble()
            let store = ServerRecordStore(transport: server)
            server.failNext(1, status: status)
            let keeping = try #require(await failure { try await store.keep(samples[0]) })
            #expect(keeping.isTransient == transient)
            #expect(keeping.reason.contains("HTTP \(status)"))
            server.failNext(1, status: status)
            let listing = try #require(await failure { _ = try await store.records() })
            #expect(listing.isTransient == transient)
            #expect(listing.reason.contains("HTTP \(status)"))
            // The failures are used up: the next requests succeed.
            try await store.keep(samples[0])
            #expect(try await store.records() == [samples[0]])
            #expect(server.requestCount == 4)
        }

        @Test func theServerIsRetriedAfterTransientFailures() async throws {
            let server = ServerContractTestDouble()
            let store = ServerRecordStore(transport: server)
            server.failNext(2)
            for _ in 0..<2 {
                let error = try #require(await failure { try await store.keep(Self.mine[1]) })
                #expect(error.isTransient)
            }
            #expect(server.records.isEmpty)
            try await store.keep(Self.mine[1])
            #expect(server.records == [Self.mine[1].transactionID: Self.mine[1]])
            #expect(server.requestCount == 3)
        }

        static let malformedAnswers: [String] = [
            "",
            "not json",
            "[]",
            "{}",
            #"{"records": {}}"#,
            #"{"records": [{"product": "p"}]}"#,
            #"{"records": [{"product": "p", "transaction": "t", "strategy": "server", "kind": "gift", "purchaseDate": 1}]}"#,
            #"{"records": [{"product": "p", "transaction": "t", "strategy": "server", "kind": "transaction", "purchaseDate": 1}]}"#,
            #"{"records": [{"product": "p", "transaction": "t", "strategy": "server", "kind": "flag", "purchaseDate": true}]}"#,
        ]

        @Test(arguments: malformedAnswers)
        func aMalformedAnswerFailsPermanently(_ body: String) async throws {
            let server = ServerContractTestDouble()
            server.answerNext(with: ServerResponse(status: 200, body: Array(body.utf8)))
            let error = try #require(await failure { _ = try await ServerRecordStore(transport: server).records() })
            #expect(!error.isTransient)
            #expect(error.reason.contains("not the documented JSON"))
        }

        @Test func aMalformedAnswerSaysWhatIsWrong() async throws {
            let server = ServerContractTestDouble()
            server.answerNext(with: ServerResponse(status: 200, body: Array(Self.malformedAnswers[7].utf8)))
            let error = try #require(await failure { _ = try await ServerRecordStore(transport: server).records() })
            #expect(error.reason.contains("records[0]: quantity: missing"), "\(error.reason)")
        }

        @Test(arguments: [("a/b c", "/v1/records/a%2Fb%20c"), ("..", "/v1/records/%2E%2E"), ("x?y#z%", "/v1/records/x%3Fy%23z%25"),
                          ("v1.2~_-", "/v1/records/v1.2~_-"), ("é", "/v1/records/%C3%A9")])
        func transactionIDsArePercentEncoded(_ id: String, _ path: String) async throws {
            let server = ServerContractTestDouble()
            let sample = record("p", id)
            try await ServerRecordStore(transport: server).keep(sample)
            #expect(server.requests.first?.path == path)
            #expect(server.records == [id: sample])
        }

        @Test func transportFailuresPassThrough() async throws {
            struct Offline: ServerTransport {
                func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse { throw .transient("offline") }
                func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String { throw .permanent("no") }
            }
            let store = ServerRecordStore(transport: Offline())
            #expect(await failure { try await store.keep(samples[0]) } == .transient("offline"))
            #expect(await failure { _ = try await store.records() } == .transient("offline"))
        }

        @Test func aRecordTheContractCannotCarryIsNotSent() async throws {
            let server = ServerContractTestDouble()
            let error = try #require(await failure { try await ServerRecordStore(transport: server).keep(record("p", "")) })
            #expect(!error.isTransient)
            #expect(server.requestCount == 0)
        }

        @Test func theDoubleRefusesWhatTheContractDoesNot() async throws {
            let server = ServerContractTestDouble()
            let valid = #"{"product": "p", "transaction": "t", "strategy": "server", "kind": "flag", "purchaseDate": 1}"#
            func status(_ method: String, _ path: String, _ body: String = "") async throws -> Int {
                try await server.send(ServerRequest(method: method, path: path, body: Array(body.utf8))).status
            }
            #expect(try await status("PUT", "/v1/records/t", valid) == 201)
            #expect(try await status("PUT", "/v1/records/t", valid) == 200)
            #expect(try await status("PUT", "/v1/records/t", "nope") == 400)
            #expect(try await status("PUT", "/v1/records/other", valid) == 400, "the body names another transaction")
            #expect(try await status("PUT", "/v1/records/a b", valid) == 400, "a raw space in the path")
            #expect(try await status("PUT", "/v1/records/t", valid.replacingOccurrences(of: "flag", with: "receipt")) == 400)
            #expect(try await status("PUT", "/v1/records/u", valid.replacingOccurrences(of: "\"t\"", with: "\"u\", \"user\": \"eve\"")) == 403)
            #expect(try await status("GET", "/v1/records?user=x") == 400, "no route takes a query")
            #expect(try await status("DELETE", "/v1/records/t") == 405)
            #expect(try await status("GET", "/v1/elsewhere") == 404)
            #expect(try await status("GET", "/records") == 404, "the unversioned routes are gone")
            #expect(try await status("POST", "/v1/receipts/verify", #"{"transaction": "t", "product": "p", "receipt": "AQI="}"#) == 200)
            #expect(try await status("POST", "/v1/receipts/verify", #"{"transaction": "t", "product": "p", "receipt": null}"#) == 403)
            #expect(try await status("POST", "/v1/receipts/verify", "{}") == 400)
            server.signIn(as: nil)
            #expect(try await status("GET", "/v1/records") == 401)
            #expect(server.records(of: SimulatedServer.defaultUser).count == 1)
            #expect(server.requestCount == 15)
            #expect(try await server.download(path: "packs/a.zip", storage: nil) == "downloads/packs/a.zip")
        }
    }
}
