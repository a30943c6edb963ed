import Foundation
import StorekeeperChildProcess
import StorekeeperServerTestSupport
import Testing

/// `serve` as an operator runs it: a real process on loopback, answering over HTTP, stopping on
/// SIGTERM, its log free of every secret.
@Suite struct ServeCommandTests {
    static let tokenSecret = "client-token-secret-for-the-serve-tests-0123456789"

    @Test func itServesHealthOverHTTPAndStopsOnSIGTERM() async throws {
        try await ScratchFolder.with { folder in
            let server = try await RunningServer.start(
                ["--policy", RepositoryFiles.dailyPlanetCatalog, "--database", "sqlite:ledger.sqlite"],
                environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret]), folder: folder)
            let health = try await server.get("/health")
            #expect(health.status == 200, "\(server.log)")
            #expect(health.body == #"{"status":"ok"}"#)
            #expect(server.log.contains("source=catalog"), "\(server.log)")
            // Metrics in Prometheus's text format, counting the request just answered.
            let metrics = try await server.get("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.body.contains(#"storekeeper_http_requests_total{route="/health",method="GET",status="200"} 1"#), "\(metrics.body)")
            let outcome = try server.stop()
            #expect(outcome.termination == .exited(0), "\(server.log)")
            #expect(server.log.contains("message=stopped"), "\(server.log)")
            // The database was made in the folder the server started in, and migrated.
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("ledger.sqlite").path))
        }
    }

    @Test func noSecretGivenByEnvironmentOrFileAppearsInTheLogAtAnyLevel() async throws {
        try await ScratchFolder.with { folder in
            let operatorKey = "operator-key-given-in-a-file-0123456789"
            let sharedSecret = "receipt-shared-secret-in-the-config-file"
            let keyFile = try folder.writing(operatorKey + "\n", to: "operator-key")
            let config = try folder.writing(#"{"receipt-shared-secret": "\#(sharedSecret)", "log-level": "trace"}"#, to: "server.json")
            for format in ["logfmt", "json"] {
                let server = try await RunningServer.start(
                    ["--policy", RepositoryFiles.dailyPlanetCatalog, "--config", config, "--log-format", format],
                    environment: ServerExecutable.environment([
                        "STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret, "STOREKEEPER_SERVER_OPERATOR_KEY_FILE": keyFile,
                    ]),
                    folder: folder, name: "server-\(format)")
                _ = try await server.get("/health")
                _ = try await server.get("/v1/operator/notifications", headers: [("Authorization", "Bearer \(operatorKey)")])
                _ = try server.stop()
                let log = server.log
                // The settings are logged, secrets as ***: the log does speak of them.
                #expect(log.contains("client-token-secret"), "\(log)")
                #expect(log.contains("***"), "\(log)")
                for secret in [Self.tokenSecret, operatorKey, sharedSecret] {
                    #expect(!log.contains(secret), "\(format): \(secret) in the log:\n\(log)")
                }
            }
        }
    }

    @Test func aShortTokenSecretIsRefusedBeforeServing() async throws {
        let result = try await ServerExecutable.run(
            ["serve", "--policy", RepositoryFiles.dailyPlanetCatalog],
            environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": "short"]))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("has 5 bytes; it needs at least 32"), "\(result)")
        #expect(!result.stderr.contains("short\n") && !result.stderr.contains("'short'"), "\(result)")
    }

    @Test func noTokenSecretSaysHowToGiveOne() async throws {
        let result = try await ServerExecutable.run(["serve", "--policy", RepositoryFiles.dailyPlanetCatalog])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("no client token secret: set STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET"), "\(result)")
    }

    @Test func aCatalogWithErrorsIsNotServed() async throws {
        try await ScratchFolder.with { folder in
            let catalog = try folder.writing("format: 1\napp:\n  bundle-id: com.example.broken\nproducts: 12\n", to: "catalog.yaml")
            let result = try await ServerExecutable.run(
                ["serve", "--policy", catalog],
                environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret]))
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--policy \(catalog): the catalog has"), "\(result)")
            #expect(result.stderr.contains("\(catalog):"), "\(result)")
        }
    }

    @Test func aCompiledPolicyIsServedWithTheBundleIDGiven() async throws {
        let environment = ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret])
        let withoutBundle = try await ServerExecutable.run(["serve", "--policy", RepositoryFiles.dailyPlanetPolicy], environment: environment)
        #expect(withoutBundle.status == 2, "\(withoutBundle)")
        #expect(withoutBundle.stderr.contains("is a compiled policy, which does not name the app: give --bundle-id"), "\(withoutBundle)")
        try await ScratchFolder.with { folder in
            let server = try await RunningServer.start(
                ["--policy", RepositoryFiles.dailyPlanetPolicy, "--bundle-id", "com.example.dailyplanet"], environment: environment, folder: folder)
            #expect(try await server.get("/health").status == 200, "\(server.log)")
            #expect(server.log.contains("source=compiled-policy"), "\(server.log)")
            #expect(try server.stop().termination == .exited(0), "\(server.log)")
        }
    }

    @Test func aDamagedCompiledPolicyIsReportedAtItsPlace() async throws {
        try await ScratchFolder.with { folder in
            let policy = try folder.writing("{\"format\": \"storekeeper-policy\", \"version\": 2,,}", to: "policy.json")
            let result = try await ServerExecutable.run(
                ["serve", "--policy", policy, "--bundle-id", "com.example.app"],
                environment: ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret]))
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--policy \(policy):1:"), "\(result)")
        }
    }
}
