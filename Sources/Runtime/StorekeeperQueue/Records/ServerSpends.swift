import StorekeeperCore
import StorekeeperJSON
import StorekeeperRuntime

/// The client of a server-kept balance, over the host's ``ServerTransport``,
/// as `docs/server-contract.md` describes (version 1):
///
/// - ``spend(key:balance:amount:)`` sends `PUT /v1/spends/{key}` (the key
///   percent-encoded) with `{"balance": "coins", "amount": 100}` and reads
///   `{"key", "balance", "amount", "remaining"}`. The server spends once per
///   key: the same key again with the same body gets the same answer.
/// - ``balances()`` sends `GET /v1/entitlements` and reads its `balances`
///   (through ``ServerAccount/entitlements()``).
///
/// 2xx succeeds; 401, 408, 429 and 5xx fail transiently; 409 with the code
/// `insufficient-balance` or `spend-key-reused` is an ``Answer``; any other
/// status fails permanently, naming it and the error's code and message.
public struct ServerSpends: Sendable {
    /// The connection to the app's server.
    public var transport: any ServerTransport

    /// A client of the server `transport` reaches.
    public init(transport: any ServerTransport) {
        self.transport = transport
    }

    /// What the server answered to a spend.
    public enum Answer: Sendable, Hashable {
        /// Spent (now, or the first time this key was sent): what is left.
        case spent(remaining: Int)
        /// Not enough: nothing was spent. The server's message.
        case insufficient(String)
        /// The key was used with another body: nothing was spent. The server's message.
        case keyReused(String)
    }

    /// Spends `amount` of `balance` under `key`.
    ///
    /// - Throws: The transport's failure; a transient `StepFailure` for 401,
    ///   408, 429 and 5xx; a permanent one for other refusals and for an
    ///   answer that is not the documented JSON or is about another spend.
    public func spend(key: String, balance: String, amount: Int) async throws(StepFailure) -> Answer {
        let path = "/v1/spends/\(ServerPath.segment(key))"
        let body = JSONWriter(indentation: nil).serialize(["balance": .string(balance), "amount": .integer(amount)])
        let response = try await transport.send(ServerRequest(method: "PUT", path: path, body: Array(body.utf8)))
        if response.status == 409, let error = Self.errorBody(response.body) {
            switch error.code {
            case "insufficient-balance": return .insufficient(error.message)
            case "spend-key-reused": return .keyReused(error.message)
            default: break
            }
        }
        try Self.check(response, "PUT", path)
        guard case .object(let members)? = try? JSONParser().parse(response.body),
              case .string(let answeredKey)? = members.first(where: { $0.key == "key" })?.value,
              case .string(let answeredBalance)? = members.first(where: { $0.key == "balance" })?.value,
              case .integer(let answeredAmount)? = members.first(where: { $0.key == "amount" })?.value,
              case .integer(let remaining)? = members.first(where: { $0.key == "remaining" })?.value
        else {
            throw .permanent("the server's answer to PUT \(path) is not the documented JSON {\"key\", \"balance\", \"amount\", \"remaining\"}")
        }
        guard answeredKey == key, answeredBalance == balance, answeredAmount == amount, remaining >= 0 else {
            throw .permanent("the server's answer to PUT \(path) is about another spend (key '\(answeredKey)', \(answeredAmount) \(answeredBalance), remaining \(remaining)), not \(amount) \(balance) under '\(key)'")
        }
        return .spent(remaining: remaining)
    }

    /// The balances the server keeps for the user, from `GET /v1/entitlements`
    /// (read as ``ServerAccount/entitlements()`` reads it: every number a JSON
    /// number, so the subscriptions' fractional dates do not stop it).
    ///
    /// - Throws: As ``ServerAccount/entitlements()``.
    public func balances() async throws(StepFailure) -> [String: Int] {
        try await ServerAccount(transport: transport).entitlements().balances
    }

    /// The contract's error object, `{"error": {"code", "message"}}`, if the body is one.
    static func errorBody(_ body: [UInt8]) -> (code: String, message: String)? {
        guard case .object(let members)? = try? JSONParser().parse(body),
              case .object(let error)? = members.first(where: { $0.key == "error" })?.value,
              case .string(let code)? = error.first(where: { $0.key == "code" })?.value
        else { return nil }
        if case .string(let message)? = error.first(where: { $0.key == "message" })?.value { return (code, message) }
        return (code, code)
    }

    /// Maps a status as the contract says: try again later for 401, 408, 429 and 5xx.
    private static func check(_ response: ServerResponse, _ method: String, _ path: String) throws(StepFailure) {
        guard !(200..<300).contains(response.status) else { return }
        let detail = errorBody(response.body).map { ": \($0.code): \($0.message)" } ?? ""
        switch response.status {
        case 401, 408, 429, 500..<600:
            throw .transient("\(method) \(path): the server could not answer now (HTTP \(response.status)\(detail))")
        default:
            throw .permanent("\(method) \(path): the server refused (HTTP \(response.status)\(detail))")
        }
    }
}
