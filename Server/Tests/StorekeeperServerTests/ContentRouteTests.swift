import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerTestSupport
import StorekeeperTestChain
import Testing

/// `GET /v1/content/{path...}`: to owners only, with ETag, ranges, If-Range, and never outside the folder.
@Suite struct ContentRouteTests {
    /// Runs `body` with alice owning Level 2 and Bonus.
    static func withOwner(_ backend: TestBackend, _ body: @Sendable (ServerHarness, any TestClientProtocol, String) async throws -> Void) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            for (id, product) in [("5000000001", ServerHarness.level2), ("5000000002", ServerHarness.bonus)] {
                let jws = try harness.sign(harness.payload(id, product: product, user: "alice"))
                #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(jws)).status == .ok)
            }
            try await body(harness, client, alice)
        }
    }

    @Test(arguments: TestBackend.available)
    func anOwnerGetsTheWholeFileWithItsETag(backend: TestBackend) async throws {
        try await Self.withOwner(backend) { _, client, alice in
            let response = try await client.send(.get, "/v1/content/packs/level-2.zip", token: alice)
            #expect(response.status == .ok)
            #expect(Array(response.body.readableBytesView) == ServerHarness.level2Bytes)
            #expect(response.headers[.contentLength] == String(ServerHarness.level2Bytes.count))
            #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
            // No content.path: the product id is the path.
            let bonus = try await client.send(.get, "/v1/content/com.example.servertests.bonus", token: alice)
            #expect(Array(bonus.body.readableBytesView) == ServerHarness.bonusBytes)
        }
    }

    @Test(arguments: TestBackend.available)
    func rangesResumeWhileTheETagMatches(backend: TestBackend) async throws {
        try await Self.withOwner(backend) { _, client, alice in
            let total = ServerHarness.level2Bytes.count
            let etag = try await client.send(.get, "/v1/content/packs/level-2.zip", token: alice).headers[.eTag] ?? ""
            let rest = try await client.send(.get, "/v1/content/packs/level-2.zip", token: alice, headers: [.range: "bytes=150000-", .ifRange: etag])
            #expect(rest.status == .partialContent)
            #expect(rest.headers[.contentRange] == "bytes 150000-\(total - 1)/\(total)")
            #expect(rest.headers[.contentLength] == String(total - 150_000))
            #expect(Array(rest.body.readableBytesView) == Array(ServerHarness.level2Bytes[150_000...]))

            let middle = try await client.send(.get, "/v1/content/packs/level-2.zip", token: alice, headers: [.range: "bytes=10-19"])
            #expect(middle.status == .partialContent)
            #expect(Array(middle.body.readableBytesView) == Array(ServerHarness.level2Bytes[10...19]))

            let changed = try await client.send(.get, "/v1/content/packs/level-2.zip", token: alice, headers: [.range: "bytes=150000-", .ifRange: "\"old\""])
            #expect(changed.status == .ok)
            #expect(changed.body.readableBytes == total)

            let past = try await client.send(.get, "/v1/content/packs/level-2.zip", token: alice, headers: [.range: "bytes=\(total)-"])
            #expect(past.status == .rangeNotSatisfiable)
            #expect(past.headers[.contentRange] == "bytes */\(total)")
        }
    }

    @Test(arguments: TestBackend.available)
    func someoneWhoDoesNotOwnItGets403(backend: TestBackend) async throws {
        try await Self.withOwner(backend) { harness, client, alice in
            let bob = try await client.send(.get, "/v1/content/packs/level-2.zip", token: try harness.token("bob"))
            #expect(bob.status == .forbidden)
            #expect(bob.errorCode() == "not-owned")
            #expect(bob.body.readableBytes < 400)
            // Refunded: no longer owned.
            // Signed after the purchase, so that it replaces it.
            var refund = harness.payload("5000000001", product: ServerHarness.level2, user: "alice", revoked: true)
            refund.signedDate = ServerHarness.now.addingTimeInterval(-5)
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(refund))).status == .ok)
            #expect(try await client.send(.get, "/v1/content/packs/level-2.zip", token: alice).status == .forbidden)
        }
    }

    @Test(arguments: TestBackend.available)
    func pathsWithoutContentOrLeavingTheFolderAre404(backend: TestBackend) async throws {
        try await Self.withOwner(backend) { harness, client, alice in
            // A file beside the folder, and a link inside the folder pointing at it.
            let outside = harness.contentFolder.deletingLastPathComponent().appendingPathComponent("secret-\(UUID().uuidString)")
            try Data("secret".utf8).write(to: outside)
            defer { try? FileManager.default.removeItem(at: outside) }
            try FileManager.default.removeItem(at: harness.contentFolder.appendingPathComponent(ServerHarness.bonus))
            try FileManager.default.createSymbolicLink(
                at: harness.contentFolder.appendingPathComponent(ServerHarness.bonus), withDestinationURL: outside)
            for path in [
                "packs/level-3.zip", "packs/%2E%2E/packs/level-2.zip", "packs/../packs/level-2.zip", "packs%2Flevel-2.zip",
                "packs//level-2.zip", "com.example.servertests.bonus", "%2E%2E/\(outside.lastPathComponent)",
            ] {
                let response = try await client.send(.get, "/v1/content/\(path)", token: alice)
                #expect(response.status == .notFound, "\(path)")
                #expect(!response.text.contains("secret"), "\(path)")
            }
        }
    }
}
