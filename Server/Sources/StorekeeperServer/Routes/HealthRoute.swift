import Hummingbird

extension ServerRoutes {
    /// `GET /health`: 200 `{"status":"ok"}` when the database answers, 503 `unavailable` otherwise.
    @Sendable func health(_ request: Request, context: ServerRequestContext) async throws -> Response {
        do {
            _ = try await storage.schemaVersion()
        } catch {
            context.logger.warning("health check: the database does not answer", metadata: ["error": .string(String(describing: error))])
            throw APIError.unavailable("the database does not answer")
        }
        struct Status: Encodable { var status = "ok" }
        return try JSONResponse.make(Status())
    }
}
