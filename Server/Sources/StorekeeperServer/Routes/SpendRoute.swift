import Hummingbird
import StorekeeperServerStorage

extension ServerRoutes {
    struct SpendBody: Decodable {
        var balance: String
        var amount: Int
    }

    struct SpendAnswer: Encodable {
        var key: String
        var balance: String
        var amount: Int
        var remaining: Int
    }

    /// `PUT /v1/spends/{key}[?environment=sandbox]`: spends a balance of one App Store environment
    /// (``environment(of:)``) once per key, accepted only when its net holds the amount.
    @Sendable func spend(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let key = try PathSegment.decode(context.parameters.get("key")?[...] ?? "", what: "spend key")
        let shape = #"{"balance": NAME, "amount": a positive integer}"#
        let body = try await RequestBody.decode(SpendBody.self, from: request, context: context, shape: shape)
        guard !body.balance.isEmpty else { throw APIError.badRequest("balance: empty; the body must be \(shape)") }
        guard body.amount > 0 else { throw APIError.badRequest("amount: \(body.amount); the body must be \(shape)") }
        let environment = try environment(of: request)
        try await keepToldTransactions(of: user)
        switch try await storage.spend(
            SpendRequest(user: user, key: key, balance: body.balance, amount: body.amount, environment: environment)) {
        case .spent(let remaining), .repeated(let remaining):
            return try JSONResponse.make(SpendAnswer(key: key, balance: body.balance, amount: body.amount, remaining: remaining))
        case let .keyReused(balance, amount):
            throw APIError(.conflict, "spend-key-reused", "the key '\(key)' was used for \(amount) \(balance)")
        case .insufficient(let available):
            throw APIError(.conflict, "insufficient-balance", "\(body.balance): \(available) available, \(body.amount) asked; nothing was spent")
        }
    }
}
