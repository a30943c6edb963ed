import Foundation
import Hummingbird
import StorekeeperContract
import StorekeeperCore
import StorekeeperServerStorage

extension ServerRoutes {
    /// `GET /v1/account`: who the credential names, registered on first sight with
    /// the appAccountToken derived from the user id.
    @Sendable func account(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let account = try await storage.register(user: user, appAccountToken: AppAccountToken.derive(fromUser: user).uuidString.lowercased())
        return try context.answer(to: request, AccountBody(user: account.user, appAccountToken: account.appAccountToken))
    }
}

extension ServerRoutes {
    /// The account feature, under `/v1` behind client authentication: `GET account`.
    var accountRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.get("account", use: account)
        return routes
    }
}
