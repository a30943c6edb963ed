import Hummingbird
import Logging
import StorekeeperServerStorage

extension ServerRoutes {
    /// `GET /health`: 200 `{"status":"ok"}` when the database answers, 503 `unavailable` otherwise.
    ///
    /// Anyone may call it, as often as they like: it reads the schema version with one
    /// `SELECT` (`LedgerStorage.probe()`), never the migration lock nor any write.
    @Sendable func health(_ request: Request, context: ServerRequestContext) async throws -> Response {
        do {
            _ = try await storage.probe()
        } catch {
            context.logger.warning("health check: the database does not answer", metadata: ["error": .string(String(describing: error))])
            throw APIError.unavailable("the database does not answer")
        }
        struct Status: Encodable { var status = "ok" }
        return try context.answer(to: request, Status())
    }
}

extension ServerRoutes {
    /// The service's own routes, for anyone: `GET /health`, `GET /metrics`.
    var serviceRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.get("health", use: health)
        routes.get("metrics", use: prometheusMetrics)
        return routes
    }
}
