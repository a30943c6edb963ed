import Hummingbird

/// Lets an operator route's request through only with `Authorization: Bearer
/// <operator key>`; a client token is not the key, so it never opens one.
struct OperatorAuthenticationMiddleware: RouterMiddleware {
    let key: OperatorKey

    func handle(
        _ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let credential = BearerCredential.of(request) else {
            throw APIError.unauthenticated("no credential: operator routes take Authorization: Bearer <operator key>")
        }
        guard key.matches(String(credential)) else {
            throw APIError.unauthenticated("the credential is not the operator key")
        }
        return try await next(request, context)
    }
}
