import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperServer
import StorekeeperServerTestSupport
import StorekeeperTestChain
import StorekeeperVerification
import Testing

/// Client tokens (HS256 JWTs) and the operator key: what opens which route, and what a refusal says.
@Suite struct AuthenticationTests {
    /// A JWT with `header` and `claims` as given, its MAC made with `secret`.
    static func jwt(header: String, claims: String, secret: String = ServerHarness.secret) -> String {
        let input = base64URL(Array(header.utf8)) + "." + base64URL(Array(claims.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return input + "." + base64URL(Array(mac))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let exp = Int(ServerHarness.now.timeIntervalSince1970) + 3600

    @Test(arguments: TestBackend.available)
    func aValidTokenOpensClientRoutesAndNamesTheUser(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let response = try await client.send(.get, "/v1/account", token: try harness.token("alice"))
            #expect(response.status == .ok)
            #expect(try response.object()["user"] as? String == "alice")
        }
    }

    @Test(arguments: TestBackend.available)
    func refusedTokensAre401SayingWhyWithoutEchoingTheToken(backend: TestBackend) async throws {
        let now = Int(ServerHarness.now.timeIntervalSince1970)
        let cases: [(String, String)] = [
            (Self.jwt(header: #"{"alg":"HS256","typ":"JWT"}"#, claims: #"{"sub":"alice","exp":\#(now - 1)}"#), "expired"),
            (Self.jwt(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"alice","exp":\#(Self.exp)}"#, secret: "another-secret-of-more-than-32-bytes-long"), "signature"),
            (Self.base64URL(Array(#"{"alg":"none"}"#.utf8)) + "." + Self.base64URL(Array(#"{"sub":"alice","exp":\#(Self.exp)}"#.utf8)) + ".", "alg"),
            (Self.jwt(header: #"{"alg":"HS512"}"#, claims: #"{"sub":"alice","exp":\#(Self.exp)}"#), "alg"),
            (Self.jwt(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"alice"}"#), "exp"),
            (Self.jwt(header: #"{"alg":"HS256"}"#, claims: #"{"exp":\#(Self.exp)}"#), "sub"),
            (Self.jwt(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"","exp":\#(Self.exp)}"#), "sub"),
            (Self.jwt(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"\#(String(repeating: "u", count: 257))","exp":\#(Self.exp)}"#), "sub"),
            (Self.jwt(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"alice","exp":\#(Self.exp),"nbf":\#(now + 60)}"#), "not valid yet"),
            (Self.jwt(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"alice","exp":\#(Self.exp),"pad":"\#(String(repeating: "x", count: 9000))"}"#), "longer than"),
            ("not-a-jwt", "not a JWT"),
        ]
        try await ServerHarness.run(backend) { _, client in
            for (token, reason) in cases {
                let response = try await client.send(.get, "/v1/entitlements", token: token)
                #expect(response.status == .unauthorized, "\(reason)")
                #expect(response.errorCode() == "unauthenticated")
                #expect(response.errorMessage()?.contains(reason) == true, "\(reason): \(response.errorMessage() ?? "")")
                #expect(!response.text.contains(token.prefix(40)), "the answer echoes the token")
            }
            let missing = try await client.send(.get, "/v1/entitlements")
            #expect(missing.status == .unauthorized)
            #expect(missing.errorMessage()?.contains("no credential") == true)
        }
    }

    @Test(arguments: TestBackend.available)
    func aTokenWhoseClaimsWereChangedIsRefused(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let parts = try harness.token("alice").split(separator: ".")
            let forged = parts[0] + "." + Self.base64URL(Array(#"{"sub":"bob","exp":\#(Self.exp)}"#.utf8)) + "." + parts[2]
            let response = try await client.send(.get, "/v1/account", token: String(forged))
            #expect(response.status == .unauthorized)
            #expect(response.errorMessage()?.contains("signature") == true)
        }
    }

    @Test(arguments: TestBackend.available)
    func theOperatorKeyAndClientTokensOpenOnlyTheirOwnRoutes(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let token = try harness.token("alice")
            #expect(try await client.send(.get, "/v1/account", token: token).status == .ok)
            #expect(try await client.send(.get, "/v1/operator/consumption-requests", token: ServerHarness.operatorKeyText).status == .ok)

            let operatorWithToken = try await client.send(.get, "/v1/operator/consumption-requests", token: token)
            #expect(operatorWithToken.status == .unauthorized)
            #expect(operatorWithToken.errorCode() == "unauthenticated")
            let clientWithKey = try await client.send(.get, "/v1/account", token: ServerHarness.operatorKeyText)
            #expect(clientWithKey.status == .unauthorized)
            #expect(!clientWithKey.text.contains(ServerHarness.operatorKeyText))
            #expect(try await client.send(.get, "/v1/operator/users/alice").status == .unauthorized)
        }
    }

    @Test func shortSecretsAreRefusedAndNoDescriptionShowsOne() throws {
        #expect(throws: ClientTokenSecret.TooShort.self) { try ClientTokenSecret(String(repeating: "s", count: 31)) }
        #expect(throws: OperatorKey.TooShort.self) { try OperatorKey(String(repeating: "k", count: 31)) }
        let configuration = try ServerConfiguration(
            policy: ServerHarness.policy(),
            verifiers: TransactionVerifiers(.init(trustedRoots: [ServerHarness.chain().rootDER], bundleID: ServerHarness.bundleID, environment: .sandbox)),
            clientTokenSecret: ClientTokenSecret(ServerHarness.secret), operatorKey: OperatorKey(ServerHarness.operatorKeyText))
        let text = String(describing: configuration)
        #expect(!text.contains(ServerHarness.secret))
        #expect(!text.contains(ServerHarness.operatorKeyText))
        #expect(text.contains("Sandbox"))
    }

    @Test func anIssuedTokenVerifiesUntilItExpires() throws {
        let secret = try ClientTokenSecret(ServerHarness.secret)
        let token = try ClientToken.issue(user: "alice", expiresAt: ServerHarness.now.addingTimeInterval(10), secret: secret)
        #expect(try ClientToken.verify(token, secret: secret, now: ServerHarness.now, maximumSize: 4096) == "alice")
        #expect(throws: AuthenticationFailure.expired) {
            try ClientToken.verify(token, secret: secret, now: ServerHarness.now.addingTimeInterval(10), maximumSize: 4096)
        }
        #expect(throws: AuthenticationFailure.self) { try ClientToken.issue(user: "", expiresAt: ServerHarness.now, secret: secret) }
    }
}
