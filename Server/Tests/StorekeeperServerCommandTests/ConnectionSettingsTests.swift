import Foundation
import StorekeeperChildProcess
import StorekeeperServer
import StorekeeperServerTestSupport
import Testing

/// `serve`'s connection settings (`idle-timeout`, `max-connections`), a body streamed past the
/// limit, and receipts turned on only by their shared secret: over real sockets, to a real process.
@Suite struct ConnectionSettingsTests {
    static let tokenSecret = "client-token-secret-for-the-connection-tests-0123"

    static func start(_ arguments: [String] = [], environment: [String: String] = [:], folder: URL) async throws -> RunningServer {
        try await RunningServer.start(
            ["--policy", RepositoryFiles.dailyPlanetCatalog, "--database", "sqlite:ledger.sqlite"] + arguments,
            environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret].merging(environment) { $1 }),
            folder: folder)
    }

    static func token(_ user: String) throws -> String {
        try ClientToken.issue(user: user, expiresAt: Date().addingTimeInterval(600), secret: ClientTokenSecret(tokenSecret))
    }

    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await ScratchFolder.with { folder in
            let server = try await Self.start(["--idle-timeout", "1", "--max-connections", "50"], folder: folder)
            defer { _ = try? server.stop() }
            let connection = try RawConnection(port: server.endpoint.port)
            let started = ContinuousClock.now
            let (_, closed) = connection.readUntilClosed(within: 10)
            let elapsed = ContinuousClock.now - started
            #expect(closed, "an idle connection was still open after 10 s:\n\(server.log)")
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(5), "closed after \(elapsed)")
            // A connection that asks something is answered, and then closed once idle too.
            let asking = try RawConnection(port: server.endpoint.port)
            #expect(asking.transmit(Array("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)))
            let (answer, closedToo) = asking.readUntilClosed(within: 10)
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "\(String(decoding: answer, as: UTF8.self))")
            #expect(closedToo)
        }
    }

    @Test func theConnectionSettingsHaveDefaultsAndBounds() async throws {
        let shown = try await ServerExecutable.run(
            ["serve", "--policy", RepositoryFiles.dailyPlanetCatalog, "--print-configuration"],
            environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret]))
        #expect(shown.stdout.contains("idle-timeout = 75 s (default)"), "\(shown)")
        #expect(shown.stdout.contains("max-connections = 1000 (default)"), "\(shown)")
        let zero = try await ServerExecutable.run(
            ["serve", "--policy", RepositoryFiles.dailyPlanetCatalog, "--idle-timeout", "0"],
            environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret]))
        #expect(zero.status == 2 && zero.stderr.contains("--idle-timeout 0 is not an idle timeout"), "\(zero)")
    }

    /// A chunked body has no Content-Length to refuse it by: it is read up to the limit (1 MiB), and one
    /// byte more is 413 `body-too-large` in the error format, never 500.
    @Test func aChunkedBodyPastTheLimitIs413() async throws {
        try await ScratchFolder.with { folder in
            let server = try await Self.start(folder: folder)
            defer { _ = try? server.stop() }
            let connection = try RawConnection(port: server.endpoint.port)
            let head = "POST /v1/transactions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(try Self.token("alice"))\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            _ = connection.transmit(Array(head.utf8))
            let chunk = Array("\(String(65_536, radix: 16))\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 65_536) + Array("\r\n".utf8)
            for _ in 0..<17 where connection.transmit(chunk) {}
            _ = connection.transmit(Array("0\r\n\r\n".utf8))
            // The error body ends the answer; the connection may stay open for the next request.
            let (answer, _) = connection.readUntilClosed(within: 10) { String(decoding: $0, as: UTF8.self).hasSuffix("}}") }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text)\n\(server.log)")
            #expect(text.contains(#""code":"body-too-large""#), "\(text)")
        }
    }

    /// A request waits only seconds for a PostgreSQL connection, but a server starting beside its database
    /// (a container, a reboot) keeps trying to migrate for a minute, saying so, rather than exiting at once.
    @Test func atStartADatabaseThatDoesNotAnswerYetIsWaitedFor() async throws {
        try await ScratchFolder.with { folder in
            let server = try RunningServer.launch(
                ["--policy", RepositoryFiles.dailyPlanetCatalog, "--database", "postgres://storekeeper:secret@127.0.0.1:1/ledger"],
                environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret]), folder: folder)
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline, !server.log.contains("the database does not answer yet"), !server.child.hasEnded() {
                try await Task.sleep(for: .milliseconds(200))
            }
            let log = server.log
            #expect(!server.child.hasEnded(), "the server gave up at once:\n\(log)")
            #expect(log.contains("the database does not answer yet"), "\(log)")
            #expect(!log.contains("secret@"), "the password stays out of the log:\n\(log)")
            _ = try server.stop()
        }
    }

    /// Receipts are verified only with the app's shared secret: without it the route says so (404
    /// `receipts-not-configured`) instead of forwarding receipts with no password.
    @Test func receiptsAreVerifiedOnlyWithTheSharedSecret() async throws {
        let body = #"{"product":"com.example.dailyplanet.pro","receipt":null,"transaction":"1"}"#
        try await ScratchFolder.with { folder in
            let without = try await Self.start(folder: folder)
            let refused = try await without.send("POST", "/v1/receipts/verify", headers: [("Authorization", "Bearer \(try Self.token("alice"))")], body: body)
            _ = try without.stop()
            #expect(refused.status == 404 && refused.body.contains("receipts-not-configured"), "\(refused)")
        }
        try await ScratchFolder.with { folder in
            let with = try await Self.start(environment: ["STOREKEEPER_SERVER_RECEIPT_SHARED_SECRET": "0123456789abcdef"], folder: folder)
            // No receipt to forward: refused before the App Store is asked, by a route that is there.
            let answered = try await with.send("POST", "/v1/receipts/verify", headers: [("Authorization", "Bearer \(try Self.token("alice"))")], body: body)
            _ = try with.stop()
            #expect(answered.status == 403 && answered.body.contains("receipt-not-valid"), "\(answered)")
        }
        let alone = try await ServerExecutable.run(
            ["serve", "--policy", RepositoryFiles.dailyPlanetCatalog, "--verify-receipt-url", "https://example.com/verifyReceipt"],
            environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret]))
        #expect(alone.status == 2 && alone.stderr.contains("receipts are not verified without the app's shared secret"), "\(alone)")
    }
}
