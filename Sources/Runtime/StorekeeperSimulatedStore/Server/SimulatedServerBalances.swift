import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperQueue
import StorekeeperRuntime

/// The balances a catalog keeps on the app's server, simulated in front of
/// a ``SimulatedServer``: `PUT /v1/spends/{key}` and the `balances` of
/// `GET /v1/entitlements`, as `docs/server-contract.md` describes them;
/// every other request goes to the server behind it.
///
/// A balance is what the server's records grant (each consumable's grants,
/// from the catalog, times the quantity its record holds) minus the spends
/// it took. A spend never takes a balance below zero (409
/// `insufficient-balance`, nothing spent); the same key with the same body
/// gets the first answer again, with another body 409 `spend-key-reused`.
/// `GET /v1/entitlements` answers the balances only (its `features`,
/// `subscriptions` and `products` are empty: the simulated server derives
/// no more). While offline every request fails transiently.
public final class SimulatedServerBalances: ServerTransport, Sendable {
    /// The server behind, which keeps the records.
    public let server: SimulatedServer
    /// Grants per unit of each product, by product id.
    private let grants: [String: [GrantPolicy]]
    private let state = Locked(State())

    private struct State {
        var offline = false
        var spends: [String: (balance: String, amount: Int, remaining: Int)] = [:]
    }

    /// The balances of `policy`'s products, in front of `server`.
    public init(server: SimulatedServer, policy: CompiledPolicy) {
        self.server = server
        var grants: [String: [GrantPolicy]] = [:]
        for product in policy.products where !product.grants.isEmpty { grants[product.id] = product.grants }
        self.grants = grants
    }

    /// The spends taken, by key: the balance and amount.
    public var spends: [String: (balance: String, amount: Int)] {
        state.withLock { $0.spends.mapValues { ($0.balance, $0.amount) } }
    }

    /// The device loses (true) or regains (false) its network, for the
    /// server behind too.
    public func setOffline(_ offline: Bool) {
        state.withLock { $0.offline = offline }
        server.setOffline(offline)
    }

    /// Serves spends and balances; passes everything else to the server.
    public func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse {
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
        if path == "/v1/entitlements" || path.hasPrefix("/v1/spends/") {
            guard !state.withLock({ $0.offline }) else { throw .transient("the server cannot be reached (offline)") }
            if path == "/v1/entitlements" {
                guard request.method == "GET" else { return Self.error(405, "method-not-allowed", "GET only") }
                return entitlements()
            }
            guard request.method == "PUT" else { return Self.error(405, "method-not-allowed", "PUT only") }
            let segment = String(path.dropFirst("/v1/spends/".count))
            guard !segment.contains("/"), let key = segment.removingPercentEncoding, !key.isEmpty else {
                return Self.error(400, "bad-key", "the key is not one percent-encoded path segment")
            }
            return spend(key: key, body: request.body)
        }
        return try await server.send(request)
    }

    /// The server's downloads.
    public func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        try await server.download(path: path, storage: storage)
    }

    /// What the records grant minus what was spent, by balance.
    private func balances(spends: [String: (balance: String, amount: Int, remaining: Int)]) -> [String: Int] {
        var balances: [String: Int] = [:]
        for record in server.records.values {
            for grant in grants[record.productID] ?? [] { balances[grant.balance, default: 0] += grant.amount * record.units }
        }
        for spend in spends.values { balances[spend.balance, default: 0] -= spend.amount }
        return balances
    }

    private func entitlements() -> ServerResponse {
        let balances = state.withLock { self.balances(spends: $0.spends) }
        let members = balances.keys.sorted().map { (key: $0, value: JSONValue.integer(balances[$0] ?? 0)) }
        let body: JSONValue = ["features": [], "balances": .object(members), "subscriptions": [], "products": []]
        return ServerResponse(status: 200, body: Array(JSONWriter(indentation: nil).serialize(body).utf8))
    }

    private func spend(key: String, body: [UInt8]) -> ServerResponse {
        guard case .object(let members)? = try? JSONParser().parse(body),
              case .string(let balance)? = members.first(where: { $0.key == "balance" })?.value,
              case .integer(let amount)? = members.first(where: { $0.key == "amount" })?.value, amount >= 1
        else {
            return Self.error(400, "bad-spend", "the body is not {\"balance\": NAME, \"amount\": 1 or more}")
        }
        return state.withLock { state in
            if let first = state.spends[key] {
                guard first.balance == balance, first.amount == amount else {
                    return Self.error(409, "spend-key-reused", "the key '\(key)' was used for \(first.amount) \(first.balance)")
                }
                return Self.answer(key: key, balance: balance, amount: amount, remaining: first.remaining)
            }
            let available = balances(spends: state.spends)[balance] ?? 0
            guard amount <= available else {
                return Self.error(409, "insufficient-balance", "\(available) \(balance) available, \(amount) asked")
            }
            state.spends[key] = (balance, amount, available - amount)
            return Self.answer(key: key, balance: balance, amount: amount, remaining: available - amount)
        }
    }

    private static func answer(key: String, balance: String, amount: Int, remaining: Int) -> ServerResponse {
        let body: JSONValue = ["key": .string(key), "balance": .string(balance), "amount": .integer(amount), "remaining": .integer(remaining)]
        return ServerResponse(status: 200, body: Array(JSONWriter(indentation: nil).serialize(body).utf8))
    }

    private static func error(_ status: Int, _ code: String, _ message: String) -> ServerResponse {
        let body: JSONValue = ["error": ["code": .string(code), "message": .string(message)]]
        return ServerResponse(status: status, body: Array(JSONWriter(indentation: nil).serialize(body).utf8))
    }
}
