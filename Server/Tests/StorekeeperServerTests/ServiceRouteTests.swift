import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import StorekeeperServer
import StorekeeperServerTestSupport
import StorekeeperTestChain
import StorekeeperVerification
import Testing

/// `/health`, `/metrics`, and the error body every refusal has: unknown routes, oversized
/// bodies, a database that cannot answer.
@Suite struct ServiceRouteTests {
    @Test(arguments: TestBackend.available)
    func healthIsOkWhenTheDatabaseAnswers(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { _, client in
            let response = try await client.send(.get, "/health")
            #expect(response.status == .ok)
            #expect(response.text == #"{"status":"ok"}"#)
        }
    }

    @Test func aDatabaseThatCannotAnswerIs503WithoutItsDetails() async throws {
        let configuration = try ServerConfiguration(
            policy: ServerHarness.policy(),
            verifiers: TransactionVerifiers(.init(trustedRoots: [ServerHarness.chain().rootDER], bundleID: ServerHarness.bundleID, environment: .sandbox)),
            clientTokenSecret: ClientTokenSecret(ServerHarness.secret), operatorKey: OperatorKey(ServerHarness.operatorKeyText))
        let router = buildRouter(
            configuration: configuration, storage: FaultyStorage.unavailable, metrics: ServerMetrics(registry: PrometheusCollectorRegistry()),
            now: { ServerHarness.now })
        let token = try ClientToken.issue(user: "alice", expiresAt: ServerHarness.now.addingTimeInterval(60), secret: configuration.clientTokenSecret)
        try await Application(router: router).test(.router) { client in
            let health = try await client.send(.get, "/health")
            #expect(health.status == .serviceUnavailable)
            #expect(health.errorCode() == "unavailable")
            for (method, path, body) in [
                (HTTPRequest.Method.get, "/v1/account", nil), (.get, "/v1/entitlements", nil), (.put, "/v1/spends/k", #"{"balance":"coins","amount":1}"#),
                (.get, "/v1/records", nil),
            ] as [(HTTPRequest.Method, String, String?)] {
                let response = try await client.send(method, path, token: token, body: body)
                #expect(response.status == .serviceUnavailable, "\(path)")
                #expect(response.errorCode() == "unavailable", "\(path)")
                #expect(!response.text.contains("10.0.0.7"), "\(path)")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func unknownRoutesAndMethodsAre404InTheErrorFormat(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            for (method, path) in [(HTTPRequest.Method.get, "/nope"), (.get, "/v2/account"), (.delete, "/v1/records"), (.get, "/v1/operator/nope")] {
                let response = try await client.send(method, path, token: try harness.token("alice"))
                #expect(response.status == .notFound, "\(path)")
                #expect(response.errorCode() == "not-found", "\(path)")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func aBodyOverTheLimitIs413(backend: TestBackend) async throws {
        try await ServerHarness.run(backend, configure: { $0.limits.requestBody = 1000 }) { harness, client in
            let big = #"{"signedTransaction":"\#(String(repeating: "a", count: 1001))"}"#
            let response = try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: big)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode() == "body-too-large")
            let small = try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: #"{"signedTransaction":"a.b.c"}"#)
            #expect(small.status == .unprocessableContent)
        }
    }

    @Test(arguments: TestBackend.available)
    func theApplicationServesTheRouter(backend: TestBackend) async throws {
        try await backend.withStorage { storage, _ in
            let configuration = try ServerConfiguration(
                policy: ServerHarness.policy(),
                verifiers: TransactionVerifiers(.init(trustedRoots: [ServerHarness.chain().rootDER], bundleID: ServerHarness.bundleID, environment: .sandbox)),
                clientTokenSecret: ClientTokenSecret(ServerHarness.secret), operatorKey: OperatorKey(ServerHarness.operatorKeyText))
            let app = buildApplication(configuration: configuration, storage: storage, metrics: ServerMetrics(registry: PrometheusCollectorRegistry()))
            try await app.test(.router) { client in
                #expect(try await client.send(.get, "/health").text == #"{"status":"ok"}"#)
                let token = try ClientToken.issue(user: "alice", expiresAt: Date().addingTimeInterval(60), secret: configuration.clientTokenSecret)
                #expect(try await client.send(.get, "/v1/account", token: token).status == .ok)
            }
        }
    }

    @Test func theDefaultBodyLimitIsOneMebibyte() {
        #expect(ServerLimits().requestBody == 1 << 20)
    }

    @Test(arguments: TestBackend.available)
    func metricsCountRequestsByRouteAndStatus(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let token = try harness.token("alice")
            _ = try await client.send(.get, "/v1/records", token: token)
            _ = try await client.send(.get, "/v1/records", token: token)
            _ = try await client.send(.put, "/v1/records/secret-id", token: token, body: "{}")
            let text = try await client.send(.get, "/metrics").text
            #expect(text.contains(#"storekeeper_http_requests_total{route="/v1/records",method="GET",status="200"} 2"#), "\(text)")
            #expect(text.contains(#"storekeeper_http_requests_total{route="/v1/records/{transactionID}",method="PUT",status="400"} 1"#), "\(text)")
            #expect(text.contains("storekeeper_http_request_duration_seconds_bucket"))
            // Routes by pattern: no id (nor any token) appears.
            #expect(!text.contains("secret-id"))
            #expect(!text.contains(token))
        }
    }
}
