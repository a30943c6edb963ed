import Foundation
import StorekeeperChildProcess
@testable import StorekeeperCore
import Testing

/// `AppAccountToken.derive(fromUser:)` against Python's `uuid.uuid5`, the
/// server's side of the contract, and against RFC 9562's own example.
@Suite struct AppAccountTokenTests {
    /// Users that cross SHA-1's block boundaries (the namespace adds 16 bytes:
    /// 39, 40, 48 and 55 bytes of name end next to the padding's edges), the
    /// empty name, text beyond ASCII, and a name of many blocks.
    static let users: [String] = [
        "", "a", "user-42", "alice@example.com", "Zoë", "用户", "👩🏽‍💻 emoji", "line\nbreak", "tab\tand space",
        String(repeating: "x", count: 39), String(repeating: "y", count: 40), String(repeating: "z", count: 47),
        String(repeating: "w", count: 48), String(repeating: "v", count: 55), String(repeating: "é", count: 64),
        String(repeating: "long-user-", count: 1_000),
    ]

    /// What Python's `uuid.uuid5` says for each user, in order (one per line).
    static func pythonTokens(_ users: [String]) throws -> [String] {
        let script = """
            import sys, uuid
            space = uuid.UUID("16407aeb-f43d-4113-b0db-9abae296beca")
            for user in sys.argv[1:]:
                print(uuid.uuid5(space, user))
            """
        let run = try ChildProcess("python3", ["-c", script] + users, standardOutput: .capture(limit: 1 << 20),
                                   standardError: .capture(limit: 1 << 16)).run(timeout: .seconds(60))
        try #require(run.termination == .exited(0), "python3 failed: \(String(decoding: run.standardError, as: UTF8.self))")
        return String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func everyUserGetsPythonsUUID5() throws {
        let expected = try Self.pythonTokens(Self.users)
        try #require(expected.count == Self.users.count)
        for (user, token) in zip(Self.users, expected) {
            #expect(AppAccountToken.derive(fromUser: user).uuidString.lowercased() == token, "user \(user.prefix(20).debugDescription)")
        }
    }

    @Test func theRFCExampleOfAVersion5UUID() throws {
        // RFC 9562, appendix A.4: the DNS namespace and "www.example.com".
        let dns = try #require(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        let token = AppAccountToken.nameBased(name: Array("www.example.com".utf8), namespace: dns)
        #expect(token.uuidString.lowercased() == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }

    @Test func theNamespaceIsTheContractsOne() {
        #expect(AppAccountToken.namespace.uuidString.lowercased() == "16407aeb-f43d-4113-b0db-9abae296beca")
    }

    @Test func tokensAreVersion5AndDifferByUser() {
        let alice = AppAccountToken.derive(fromUser: "alice")
        let bytes = alice.uuid
        #expect(bytes.6 >> 4 == 5, "version 5")
        #expect(bytes.8 >> 6 == 0b10, "RFC variant")
        #expect(alice == AppAccountToken.derive(fromUser: "alice"))
        #expect(alice != AppAccountToken.derive(fromUser: "Alice"))
    }
}
