import Foundation
import Hummingbird

/// Authenticates a client route's request by its ``ClientToken`` and puts the
/// user in the context; 401 `unauthenticated` saying what is wrong otherwise.
/// The operator key is not a client token, so it never opens a client route.
struct ClientAuthenticationMiddleware: RouterMiddleware {
    let secret: ClientTokenSecret
    let maximumTokenSize: Int
    let now: @Sendable () -> Date

    func handle(
        _ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let credential = BearerCredential.of(request) else { throw APIError.unauthenticated(AuthenticationFailure.missing.description) }
        var context = context
        do {
            context.user = try ClientToken.verify(String(credential), secret: secret, now: now(), maximumSize: maximumTokenSize)
        } catch {
            throw APIError.unauthenticated(error.description)
        }
        return try await next(request, context)
    }
}
