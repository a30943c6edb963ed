import Hummingbird

extension ServerRoutes {
    /// `GET /v1/entitlements`: what ``Entitlements`` derives from the user's ledger.
    @Sendable func entitlements(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        async let transactions = storage.transactions(of: user)
        async let subscriptions = storage.subscriptions(of: user)
        async let balances = storage.balances(of: user)
        async let records = storage.records(of: user)
        let entitlements = try await Entitlements.derive(
            transactions: transactions, subscriptions: subscriptions, balances: balances, records: records,
            policy: configuration.policy, now: now())
        return try JSONResponse.make(entitlements)
    }
}
