import Foundation
import StorekeeperServerTestSupport
import Testing

/// `storekeeper-server token`: a client token the server accepts, signed with the secret `serve` reads.
@Suite struct TokenCommandTests {
    static let tokenSecret = "client-token-secret-for-the-token-tests-0123456789"

    @Test func aTokenIssuedOpensTheUsersAccountOnTheServer() async throws {
        let environment = ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": Self.tokenSecret])
        let issued = try await ServerExecutable.run(["token", "--user", "reader-7", "--expires-in", "600"], environment: environment)
        #expect(issued.status == 0, "\(issued)")
        let token = issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.split(separator: ".").count == 3, "\(issued)")
        try await ScratchFolder.with { folder in
            let server = try await RunningServer.start(["--policy", RepositoryFiles.dailyPlanetCatalog], environment: environment, folder: folder)
            defer { _ = try? server.stop() }
            let account = try await server.get("/v1/account", headers: [("Authorization", "Bearer \(token)")])
            #expect(account.status == 200, "\(account.body)")
            #expect(account.body.contains(#""user":"reader-7""#), "\(account.body)")
            // The same token from another secret is refused.
            let other = ServerExecutable.environment(["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": String(Self.tokenSecret.reversed())])
            let forged = try await ServerExecutable.run(["token", "--user", "reader-7"], environment: other)
            let refused = try await server.get("/v1/account", headers: [("Authorization", "Bearer \(forged.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")])
            #expect(refused.status == 401, "\(refused.body)")
        }
    }

    @Test(arguments: [
        (["token", "--user", "reader-7"], [String: String](), "no client token secret"),
        (["token", "--user", "reader-7"], ["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": "short-secret"], "STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET: the client token secret has 12 bytes"),
        (["token", "--user", "reader-7", "--expires-in", "0"], ["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": tokenSecret], "--expires-in 0 is not a lifetime"),
        (["token", "--user", "", "--expires-in", "60"], ["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": tokenSecret], "--user: "),
        (["token"], ["STOREKEEPER_SERVER_CLIENT_TOKEN_SECRET": tokenSecret], "--user"),
    ])
    func whatCannotBeIssuedExitsTwo(arguments: [String], environment: [String: String], expected: String) async throws {
        let result = try await ServerExecutable.run(arguments, environment: ServerExecutable.environment(environment))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(expected), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }
}
