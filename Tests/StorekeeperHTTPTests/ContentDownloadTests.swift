import Foundation
import StorekeeperCore
import StorekeeperHTTP
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import Testing

/// The downloader of server-delivered content over real HTTP: resuming
/// with ranges, starting over when the file changed, checking the size.
@Suite struct ContentDownloadTests {
    typealias T = HTTPServerTransportTests
    static let product = "com.example.pack"
    static let path = "packs/level 2.bin"
    static let bytes: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    /// The user owns the product, and its content is published.
    static func own(_ loopback: LoopbackServer, content: [UInt8] = bytes) async throws {
        try await ServerRecordStore(transport: loopback.server).keep(
            StoredRecord(strategy: .server, productID: product, value: .flag, transactionID: "t", purchaseDate: Date(timeIntervalSince1970: 0)))
        loopback.server.publish(content, at: path, for: product)
    }

    static func destination(_ root: URL) -> URL {
        ContentFolders(root: root).cache.appendingPathComponent(path)
    }

    static func partial(_ root: URL) -> URL {
        destination(root).deletingLastPathComponent().appendingPathComponent("level 2.bin.partial")
    }

    static func contentRequests(_ loopback: LoopbackServer) -> [ServerRequest] {
        loopback.server.requests.filter { $0.path.hasPrefix("/v1/content/") }
    }

    @Test func aDroppedDownloadResumesWithARangeAndTheFileIsIdentical() async throws {
        try await T.withServer { transport, loopback, _, root in
            try await Self.own(loopback)
            loopback.inject(.dropAfter(bytes: 100_000))
            let cut = try #require(await T.failure { _ = try await transport.download(path: Self.path, storage: nil, expectedSize: 300_000) })
            #expect(cut.isTransient, "\(cut)")
            #expect(cut.reason.hasPrefix("GET /v1/content/packs/level%202.bin: "), "\(cut.reason)")
            let kept = try FileManager.default.attributesOfItem(atPath: Self.partial(root).path)[.size] as? Int ?? 0
            #expect(kept > 0 && kept <= 100_000, "the bytes that came are kept: \(kept)")
            #expect(!FileManager.default.fileExists(atPath: Self.destination(root).path), "nothing half-written in place")

            let path = try await transport.download(path: Self.path, storage: nil, expectedSize: 300_000)
            #expect(path == Self.destination(root).path)
            #expect(FileManager.default.contents(atPath: path).map(Array.init) == Self.bytes)
            let resumed = try #require(Self.contentRequests(loopback).last)
            #expect(resumed.header("Range") == "bytes=\(kept)-")
            #expect(resumed.header("If-Range") == loopback.server.etag(of: Self.path))
            #expect(!FileManager.default.fileExists(atPath: Self.partial(root).path))
            #expect(!FileManager.default.fileExists(atPath: Self.partial(root).path + ".etag"))

            // Downloaded: asked again, the file is the answer, with no request.
            let count = loopback.server.requestCount
            #expect(try await transport.download(path: Self.path, storage: nil, expectedSize: 300_000) == path)
            #expect(loopback.server.requestCount == count)
        }
    }

    @Test func aFileThatChangedIsDownloadedWholeAgain() async throws {
        try await T.withServer { transport, loopback, _, root in
            try await Self.own(loopback)
            loopback.inject(.dropAfter(bytes: 50_000))
            _ = await T.failure { _ = try await transport.download(path: Self.path, storage: nil, expectedSize: nil) }
            let changed = Self.bytes.reversed() as [UInt8]
            loopback.server.publish(changed, at: Self.path, for: Self.product)
            let path = try await transport.download(path: Self.path, storage: nil, expectedSize: nil)
            #expect(FileManager.default.contents(atPath: path).map(Array.init) == changed, "not old bytes with new ones appended")
            let asked = Self.contentRequests(loopback)
            #expect(asked.count == 2)
            #expect(asked.last?.header("Range") != nil, "it asked for the rest, and was given the new file whole")
            #expect(!FileManager.default.fileExists(atPath: Self.partial(root).path))
        }
    }

    @Test func aPartialFileTheServerCannotContinueStartsOver() async throws {
        try await T.withServer { transport, loopback, _, root in
            try await Self.own(loopback)
            // A partial file as long as the whole, with the current ETag: the server answers 416.
            try FileManager.default.createDirectory(at: Self.partial(root).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 1, count: Self.bytes.count).write(to: Self.partial(root))
            try Data(try #require(loopback.server.etag(of: Self.path)).utf8).write(to: URL(fileURLWithPath: Self.partial(root).path + ".etag"))
            let path = try await transport.download(path: Self.path, storage: nil, expectedSize: 300_000)
            #expect(FileManager.default.contents(atPath: path).map(Array.init) == Self.bytes)
            #expect(Self.contentRequests(loopback).map { $0.header("Range") } == ["bytes=300000-", nil])
        }
    }

    @Test func aFileOfAnotherSizeThanTheCatalogsIsRefused() async throws {
        try await T.withServer { transport, loopback, _, root in
            try await Self.own(loopback)
            let error = try #require(await T.failure { _ = try await transport.download(path: Self.path, storage: .cache, expectedSize: 299_999) })
            #expect(error == .permanent("GET /v1/content/packs/level%202.bin: the server's file is 300000 bytes; the catalog's content.size is 299999"))
            #expect(!FileManager.default.fileExists(atPath: Self.destination(root).path))
            #expect(!FileManager.default.fileExists(atPath: Self.partial(root).path), "a refused file is not kept to resume")
        }
    }

    @Test func contentTheUserDoesNotOwnIsRefusedNamingTheCode() async throws {
        try await T.withServer { transport, loopback, _, _ in
            loopback.server.publish([1, 2, 3], at: "x", for: Self.product)
            let error = try #require(await T.failure { _ = try await transport.download(path: "x", storage: nil) })
            #expect(!error.isTransient)
            #expect(error.reason.hasPrefix("GET /v1/content/x: the server refused to send the content 'x' (HTTP 403, not-owned: "), "\(error.reason)")
        }
    }

    @Test(arguments: ["", "a//b", "../etc/passwd", "a/./b", "a/.."])
    func aPathThatWouldLeaveTheFolderIsRefused(_ path: String) async throws {
        try await T.withServer { transport, loopback, _, _ in
            let error = try #require(await T.failure { _ = try await transport.download(path: path, storage: nil) })
            #expect(!error.isTransient)
            #expect(error.reason.contains("must be segments separated by single '/'"), "\(error.reason)")
            #expect(loopback.server.requestCount == 0)
        }
    }

    @Test func theContentSourceChecksTheCatalogsSize() async throws {
        try await T.withServer { transport, loopback, _, root in
            try await Self.own(loopback)
            let policy = ProductPolicy(id: Self.product, type: .nonConsumable, delivery: .server,
                                       content: ContentPolicy(source: .server, path: Self.path, size: 12, storage: .documents),
                                       persistence: .server, restore: .restoreTransactions)
            let context = StepContext(transaction: TransactionInfo(id: "t", productID: Self.product, state: .purchased), product: policy,
                                      plugins: PluginRegistry(), services: EngineServices(server: transport))
            let content = try #require(policy.content)
            let error = try #require(await T.failure { _ = try await ServerContentSource().fetch(content, for: context) })
            #expect(error.reason.contains("the catalog's content.size is 12"), "\(error.reason)")
            #expect(!FileManager.default.fileExists(atPath: ContentFolders(root: root).documents.appendingPathComponent(Self.path).path))
        }
    }
}
