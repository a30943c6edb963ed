import StorekeeperCore
public import StorekeeperRuntime

/// The client of a server-kept balance, over the host's `ServerTransport`,
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
    package init(transport: any ServerTransport) {
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
        let path = ServerPath.spend(key)
        let request = ServerRequest(method: "PUT", path: path, body: try ContractCoding.encodeForStore(SpendBody(balance: balance, amount: amount), pretty: false))
        let response = try await transport.send(request)
        if response.status == 409, let error = response.errorBody {
            switch error.errorCode {
            case .insufficientBalance: return .insufficient(error.message)
            case .spendKeyReused: return .keyReused(error.message)
            default: break
            }
        }
        try response.check(request, doing: "spend \(amount) \(balance)")
        let answer: SpendAnswerBody
        do throws(ContractError) {
            answer = try ContractCoding.decode(SpendAnswerBody.self, from: response.body)
        } catch {
            throw .permanent("the server's answer to PUT \(path) is not the documented JSON {\"key\", \"balance\", \"amount\", \"remaining\"}: \(error)")
        }
        guard answer.key == key, answer.balance == balance, answer.amount == amount, answer.remaining >= 0 else {
            throw .permanent("the server's answer to PUT \(path) is about another spend (key '\(answer.key)', \(answer.amount) \(answer.balance), remaining \(answer.remaining)), not \(amount) \(balance) under '\(key)'")
        }
        return .spent(remaining: answer.remaining)
    }

    /// The balances the server keeps for the user, from `GET /v1/entitlements`
    /// (read as ``ServerAccount/entitlements()`` reads it: every number a JSON
    /// number, so the subscriptions' fractional dates do not stop it).
    ///
    /// - Throws: As ``ServerAccount/entitlements()``.
    public func balances() async throws(StepFailure) -> [String: Int] {
        try await ServerAccount(transport: transport).entitlements().balances
    }
}
