import Hummingbird

/// Records every request in ``ServerMetrics``: by the route's pattern (never
/// the raw path, whose ids would make a series per user), method and status.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // The error middleware inside answers every failure; this is the answer it would give.
            let refusal = ErrorMiddleware<Context>.answer(for: error, request: request, logger: context.logger)
            metrics.recordRequest(route: route(context), method: request.method.rawValue, status: Int(refusal.status.code), duration: .now - start)
            return refusal.response
        }
        metrics.recordRequest(route: route(context), method: request.method.rawValue, status: Int(response.status.code), duration: ContinuousClock.now - start)
        return response
    }

    private func route(_ context: Context) -> String { context.endpointPath ?? "unmatched" }
}
