import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import StorekeeperServer
@testable import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import StorekeeperVerification
import Testing

/// What the server answers when its database is down or busy, when a body is too large, and when
/// a user keeps too many records: never a hang, never a 500, never an internal detail to a caller
/// without a credential.
@Suite struct RobustnessTests {
    /// A configuration of the test policy, sandbox only, for a router on a storage of the test's choosing.
    static func configuration() throws -> ServerConfiguration {
        try ServerConfiguration(
            policy: ServerHarness.policy(),
            verifiers: TransactionVerifiers(.init(trustedRoots: [ServerHarness.chain().rootDER], bundleID: ServerHarness.bundleID, environment: .sandbox)),
            clientTokenSecret: ClientTokenSecret(ServerHarness.secret), operatorKey: OperatorKey(ServerHarness.operatorKeyText))
    }

    /// PostgreSQL unreachable (a loopback port nothing listens on: port 1, refused at once): postgres-nio's pool
    /// keeps trying to connect and held each request until its circuit breaker tripped, about 67 s, then the
    /// routes answered 500 `internal`. Every route answers 503 `unavailable` within the storage's connection
    /// wait (5 s by default), as the docs promise.
    @Test(.timeLimit(.minutes(1)))
    func anUnreachablePostgreSQLIs503Quickly() async throws {
        let configuration = try Self.configuration()
        let storage = try SQLLedgerStorage.postgres(url: "postgres://storekeeper:secret@127.0.0.1:1/ledger")
        let router = buildRouter(
            configuration: configuration, storage: storage, metrics: ServerMetrics(registry: PrometheusCollectorRegistry()), now: { ServerHarness.now })
        let token = try ClientToken.issue(user: "alice", expiresAt: ServerHarness.now.addingTimeInterval(60), secret: configuration.clientTokenSecret)
        do {
            try await Application(router: router).test(.router) { client in
                let clock = ContinuousClock()
                let started = clock.now
                async let health = client.send(.get, "/health")
                async let account = client.send(.get, "/v1/account", token: token)
                async let entitlements = client.send(.get, "/v1/entitlements", token: token)
                async let records = client.send(.get, "/v1/records", token: token)
                let answers = try await [("/health", health), ("/v1/account", account), ("/v1/entitlements", entitlements), ("/v1/records", records)]
                let elapsed = clock.now - started
                print("PostgreSQL unreachable: 4 requests at once answered in \(elapsed)")
                for (path, response) in answers {
                    #expect(response.status == .serviceUnavailable, "\(path): \(response.text)")
                    #expect(response.errorCode() == "unavailable", "\(path): \(response.text)")
                    #expect(!response.text.contains("secret") && !response.text.contains("127.0.0.1"), "\(path): \(response.text)")
                }
                #expect(elapsed < .seconds(15), "answered in \(elapsed)")
                // And again, now that the pool has been failing for a while.
                let again = clock.now
                let second = try await client.send(.get, "/v1/entitlements", token: token)
                #expect(second.status == .serviceUnavailable, "\(second.text)")
                #expect(clock.now - again < .seconds(15))
            }
        } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }

    /// `/health` takes no credential: it must cost one read, not the migration lock and its DDL. With the
    /// migration lock held (a migration in progress), it still answers at once.
    @Test(arguments: TestBackend.available)
    func healthDoesNotWaitForTheMigrationLock(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let storage = try #require(harness.storage as? SQLLedgerStorage)
            let (locked, lockedSource) = AsyncStream.makeStream(of: Void.self)
            // Holds the lock 4 seconds, as a long migration would (and then lets go, so that a server that waits for it ends).
            let holder = Task {
                try await storage.database.withMigrationLock { _ in
                    lockedSource.yield()
                    try await Task.sleep(for: .seconds(4))
                    return 0
                }
            }
            var waiting = locked.makeAsyncIterator()
            _ = await waiting.next()
            let clock = ContinuousClock()
            let started = clock.now
            let health = try await client.send(.get, "/health")
            let elapsed = clock.now - started
            _ = try await holder.value
            #expect(health.status == .ok, "\(health.text)")
            #expect(elapsed < .seconds(2), "/health waited \(elapsed) for the migration lock")
        }
    }

    /// 65 KiB is the notification route's own limit: a signedPayload is at most 64 KiB
    /// (`SignedDataVerifier.maximumSize`), plus 1 KiB for its JSON. A larger body is 413 in the error format, not 500.
    @Test func aNotificationOverItsLimitIs413() async throws {
        try await ServerHarness.run(.sqlite) { _, client in
            let size = NotificationProcessor.maximumBodySize + 1
            #expect(size == SignedDataVerifier.maximumSize + 1_024 + 1)
            let body = #"{"signedPayload":""# + String(repeating: "a", count: size) + #""}"#
            let response = try await client.send(.post, "/v1/notifications/sandbox", body: body)
            #expect(response.status == .contentTooLarge, "\(response.text)")
            #expect(response.errorCode() == "body-too-large")
            #expect(response.errorMessage()?.contains("\(NotificationProcessor.maximumBodySize)") == true, "\(response.text)")
        }
    }

    /// The App Store's route has no credential: a storage failure is 503 for Apple to retry, and its text (which
    /// names hosts and database users) goes to the log only.
    @Test func aNotificationTheStorageCannotTakeIs503WithoutItsDetail() async throws {
        let router = buildRouter(
            configuration: try Self.configuration(), storage: FaultyStorage.unavailable,
            metrics: ServerMetrics(registry: PrometheusCollectorRegistry()), now: { NotificationFixture.start })
        let fixture = try NotificationFixture()
        let signedPayload = try fixture.notification(.test, signed: NotificationFixture.start)
        try await Application(router: router).test(.router) { client in
            let response = try await client.send(
                .post, "/v1/notifications/sandbox", body: String(decoding: NotificationFixture.body(signedPayload), as: UTF8.self))
            #expect(response.status == .serviceUnavailable, "\(response.text)")
            #expect(response.errorCode() == "unavailable", "\(response.text)")
            #expect(!response.text.contains("10.0.0.7") && !response.text.contains("storekeeper"), "\(response.text)")
        }
    }

    /// A user keeps at most `ServerLimits.recordsPerUser` records: one more is 409 `too-many-records` naming the
    /// limit, and nothing is kept; replacing a record kept is still allowed.
    @Test(arguments: TestBackend.available)
    func recordsPerUserAreBounded(backend: TestBackend) async throws {
        try await ServerHarness.run(backend, configure: { $0.limits.recordsPerUser = 2 }) { harness, client in
            let alice = try harness.token("alice")
            func record(_ id: String, quantity: Int = 1) -> String {
                #"{"kind":"transaction","product":"\#(ServerHarness.coins)","purchaseDate":1700000100,"quantity":\#(quantity),"strategy":"server","transaction":"\#(id)"}"#
            }
            #expect(try await client.send(.put, "/v1/records/t1", token: alice, body: record("t1")).status == .created)
            #expect(try await client.send(.put, "/v1/records/t2", token: alice, body: record("t2")).status == .created)
            let third = try await client.send(.put, "/v1/records/t3", token: alice, body: record("t3"))
            #expect(third.status == .conflict, "\(third.text)")
            #expect(third.errorCode() == "too-many-records")
            #expect(third.errorMessage()?.contains("(2)") == true, "\(third.text)")
            #expect(try await client.send(.put, "/v1/records/t1", token: alice, body: record("t1", quantity: 3)).status == .ok)
            #expect(try await harness.storage.records(of: "alice").map(\.transactionID) == ["t1", "t2"])
            // Another user has a limit of their own.
            #expect(try await client.send(.put, "/v1/records/t3", token: try harness.token("bob"), body: record("t3")).status == .created)
        }
    }

    /// The router ignores empty path segments: `/metrics/` is `/metrics`. This is why docs/server.md's nginx
    /// configuration denies `/metrics` by prefix (`location ^~ /metrics`), not by exact match, which `/metrics/`
    /// passed.
    @Test func metricsAnswerTheSameWithATrailingSlash() async throws {
        try await ServerHarness.run(.sqlite) { _, client in
            _ = try await client.send(.get, "/health")
            for path in ["/metrics", "/metrics/", "/metrics//"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .ok, "\(path)")
                #expect(response.text.contains("storekeeper_http_requests_total"), "\(path): \(response.text)")
            }
        }
    }

    @Test func theDefaultRecordLimitIsTenThousand() {
        #expect(ServerLimits().recordsPerUser == 10_000)
    }
}
