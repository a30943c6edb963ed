import Hummingbird
import StorekeeperContract
import StorekeeperServerStorage

extension ServerRoutes {
    /// `GET /v1/entitlements[?environment=sandbox]`: what ``Entitlements`` derives, at the server's
    /// clock, from the user's ledger in one App Store environment (``environment(of:)``), after
    /// keeping for the user what notifications told before the user held it.
    @Sendable func entitlements(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let environment = try environment(of: request)
        return try context.answer(to: request, try await entitlements(of: user, in: environment))
    }

    /// `user`'s entitlements in `environment` now.
    func entitlements(of user: String, in environment: String) async throws -> ServerEntitlements {
        try await keepToldTransactions(of: user)
        async let transactions = storage.transactions(of: user)
        async let renewals = storage.renewals(of: user)
        async let balances = storage.balances(of: user, environment: environment)
        return try await Entitlements.derive(
            transactions: transactions, renewals: renewals, balances: balances, environment: environment,
            policy: configuration.policy, now: now())
    }
}

extension ServerRoutes {
    /// The entitlements feature, under `/v1` behind client authentication: `GET entitlements`.
    var entitlementRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.get("entitlements", use: entitlements)
        return routes
    }
}
