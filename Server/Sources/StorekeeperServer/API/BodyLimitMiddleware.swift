import Hummingbird
import StorekeeperContract

/// Puts the configured request body limit in the context, where every body
/// read looks (a larger body is 413), and refuses at once a request whose
/// `Content-Length` already says it is larger.
struct BodyLimitMiddleware: RouterMiddleware {
    let limit: Int

    func handle(
        _ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response
    ) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError(.contentTooLarge, .bodyTooLarge, "the request's body has \(length) bytes; this server accepts at most \(limit)")
        }
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }
}
