import Hummingbird
import StorekeeperContract
import StorekeeperServerStorage

extension ServerRoutes {
    /// `PUT /v1/spends/{key}[?environment=sandbox]`: spends a balance of one App Store environment
    /// (``environment(of:)``) once per key, accepted only when its net holds the amount.
    @Sendable func spend(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let key = try PathSegment.decode(context.parameters.get("key")?[...] ?? "", what: "spend key")
        let body = try await request.decode(as: SpendBody.self, context: context)
        do throws(ContractError) {
            try body.validate()
        } catch {
            throw APIError.badRequest(error.description)
        }
        let environment = try environment(of: request)
        try await keepToldTransactions(of: user)
        switch try await storage.spend(
            SpendRequest(user: user, key: key, balance: body.balance, amount: body.amount, environment: environment)) {
        case .spent(let remaining), .repeated(let remaining):
            return try context.answer(to: request, SpendAnswerBody(key: key, balance: body.balance, amount: body.amount, remaining: remaining))
        case let .keyReused(balance, amount):
            throw APIError(.conflict, .spendKeyReused, "the key '\(key)' was used for \(amount) \(balance)")
        case .insufficient(let available):
            throw APIError(.conflict, .insufficientBalance, "\(body.balance): \(available) available, \(body.amount) asked; nothing was spent")
        }
    }
}

extension ServerRoutes {
    /// The spends feature, under `/v1` behind client authentication: `PUT spends/:key`.
    var spendRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.put("spends/:key", use: spend)
        return routes
    }
}
