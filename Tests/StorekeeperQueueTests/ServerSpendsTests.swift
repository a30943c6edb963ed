import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// The spend client against the contract (docs/server-contract.md), with
/// answers written here rather than by a server implementation.
@Suite struct ServerSpendsTests {
    /// Answers each request with the next scripted response, and keeps the requests.
    final class ScriptedTransport: ServerTransport, Sendable {
        private let state: Locked<(answers: [ServerResponse], requests: [ServerRequest])>

        init(_ answers: [ServerResponse]) { state = Locked((answers, [])) }

        var requests: [ServerRequest] { state.withLock { $0.requests } }

        func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse {
            state.withLock { state in
                state.requests.append(request)
                return state.answers.isEmpty ? ServerResponse(status: 500) : state.answers.removeFirst()
            }
        }

        func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String { path }
    }

    static func response(_ status: Int, _ body: String) -> ServerResponse {
        ServerResponse(status: status, body: Array(body.utf8))
    }

    static func failure(_ body: () async throws(StepFailure) -> Void) async -> StepFailure? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aSpendIsAPutOfTheBalanceAndAmountUnderThePercentEncodedKey() async throws {
        let transport = ScriptedTransport([Self.response(200, #"{"key": "a/b c", "balance": "coins", "amount": 100, "remaining": 150}"#)])
        let answer = try await ServerSpends(transport: transport).spend(key: "a/b c", balance: "coins", amount: 100)
        #expect(answer == .spent(remaining: 150))
        let request = try #require(transport.requests.first)
        #expect(request.method == "PUT")
        #expect(request.path == "/v1/spends/a%2Fb%20c")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"amount":100,"balance":"coins"}"#)
    }

    @Test(arguments: [("insufficient-balance", true), ("spend-key-reused", false)])
    func aConflictWithTheContractsCodeIsAnAnswer(_ code: String, _ insufficient: Bool) async throws {
        let transport = ScriptedTransport([Self.response(409, #"{"error": {"code": "\#(code)", "message": "says why"}}"#)])
        let answer = try await ServerSpends(transport: transport).spend(key: "k", balance: "coins", amount: 1)
        #expect(answer == (insufficient ? .insufficient("says why") : .keyReused("says why")))
    }

    static let refusals: [(status: Int, body: String, transient: Bool, says: [String])] = [
        (401, #"{"error": {"code": "expired-credential", "message": "sign in again"}}"#, true, ["401", "expired-credential", "sign in again"]),
        (408, "", true, ["408"]),
        (429, "", true, ["429"]),
        (503, "", true, ["503"]),
        (400, #"{"error": {"code": "bad-spend", "message": "amount is not a number"}}"#, false, ["400", "bad-spend"]),
        (409, #"{"error": {"code": "something-else", "message": "no"}}"#, false, ["409", "something-else"]),
        (404, "", false, ["404", "PUT /v1/spends/k"]),
    ]

    @Test(arguments: refusals.indices)
    func statusesAreTransientOrPermanentAsTheContractSays(_ index: Int) async throws {
        let refusal = Self.refusals[index]
        let transport = ScriptedTransport([Self.response(refusal.status, refusal.body)])
        let error = try #require(await Self.failure { () throws(StepFailure) in
            _ = try await ServerSpends(transport: transport).spend(key: "k", balance: "coins", amount: 1)
        })
        #expect(error.isTransient == refusal.transient)
        for part in refusal.says { #expect(error.reason.contains(part), "\(error.reason)") }
    }

    static let badAnswers: [(body: String, says: String)] = [
        ("not json", "not the documented JSON"),
        (#"{"key": "k", "balance": "coins", "amount": 1}"#, "not the documented JSON"),
        (#"{"key": "other", "balance": "coins", "amount": 1, "remaining": 3}"#, "about another spend"),
        (#"{"key": "k", "balance": "gems", "amount": 1, "remaining": 3}"#, "about another spend"),
        (#"{"key": "k", "balance": "coins", "amount": 1, "remaining": -1}"#, "about another spend"),
    ]

    @Test(arguments: badAnswers.indices)
    func anAnswerThatIsNotTheDocumentedJSONFailsPermanently(_ index: Int) async throws {
        let bad = Self.badAnswers[index]
        let transport = ScriptedTransport([Self.response(200, bad.body)])
        let error = try #require(await Self.failure { () throws(StepFailure) in
            _ = try await ServerSpends(transport: transport).spend(key: "k", balance: "coins", amount: 1)
        })
        #expect(!error.isTransient)
        #expect(error.reason.contains(bad.says), "\(error.reason)")
    }

    @Test func theBalancesAreReadFromTheEntitlements() async throws {
        // The contract's example body: a subscription's expirationDate has a
        // fraction, and `owed` is sent (docs/server-contract.md, GET /v1/entitlements).
        let documented = #"""
            {"features": ["a"], "balances": {"coins": 250, "gems": 0}, "owed": {"gems": 5},
             "subscriptions": [{"product": "com.example.monthly", "expirationDate": 1700000000.5, "status": "active"}],
             "products": ["com.example.monthly"]}
            """#
        let transport = ScriptedTransport([
            Self.response(200, documented),
            Self.response(200, documented),
            Self.response(200, #"{"features": []}"#),
            Self.response(200, #"{"features": [], "balances": {"coins": -3}, "subscriptions": [], "products": []}"#),
            Self.response(200, #"{"features": [], "balances": {"coins": 1.5}, "subscriptions": [], "products": []}"#),
            Self.response(200, #"{"features": [], "balances": {}, "owed": {"gems": -1}, "subscriptions": [], "products": []}"#),
        ])
        let client = ServerSpends(transport: transport)
        #expect(try await client.balances() == ["coins": 250, "gems": 0])
        #expect(transport.requests.first == ServerRequest(method: "GET", path: "/v1/entitlements"))
        #expect(try await ServerAccount(transport: transport).entitlements() == ServerEntitlements(
            features: ["a"], balances: ["coins": 250, "gems": 0], owed: ["gems": 5],
            subscriptions: [.init(product: "com.example.monthly", expirationDate: Date(timeIntervalSince1970: 1_700_000_000.5), status: .active)],
            products: ["com.example.monthly"]))
        for says in ["balances: missing", "balances.coins: -3; expected a whole number", "balances.coins: 1.5; expected a whole number",
                     "owed.gems: -1; expected a whole number"] {
            let failure = try #require(await Self.failure { () throws(StepFailure) in _ = try await client.balances() })
            #expect(!failure.isTransient)
            #expect(failure.reason.contains("GET /v1/entitlements is not the documented JSON") && failure.reason.contains(says), "\(failure.reason)")
        }
    }
}
