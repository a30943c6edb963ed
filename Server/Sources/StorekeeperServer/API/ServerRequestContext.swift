public import Hummingbird

/// The request context of the server's routes: Hummingbird's core context, the
/// user a client credential authenticated (set by ``ClientAuthenticationMiddleware``),
/// the request body limit of the ``ServerConfiguration``, and the contract's
/// coders (``ContractRequestDecoder``, ``ContractResponseEncoder``), so that a
/// route decodes with `request.decode(as:context:)` and answers with
/// `context.answer(_:to:)`.
public struct ServerRequestContext: RequestContext {
    /// Hummingbird's part of the context.
    public var coreContext: CoreRequestContextStorage
    /// The user the request's client credential names; nil before authentication and on routes without it.
    public var user: String?
    /// The largest request body read, in bytes (``ServerLimits/requestBody``).
    public var maxUploadSize: Int

    /// A context for one request, with Hummingbird's 2 MiB body limit until the router sets the configured one.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        user = nil
        maxUploadSize = 2 << 20
    }

    /// The contract's decoder.
    public var requestDecoder: ContractRequestDecoder { ContractRequestDecoder() }
    /// The contract's encoder.
    public var responseEncoder: ContractResponseEncoder { ContractResponseEncoder() }

    /// The authenticated user; a route behind ``ClientAuthenticationMiddleware`` always has one.
    func authenticatedUser() throws(APIError) -> String {
        guard let user else { throw .unauthenticated("no credential: send Authorization: Bearer <token>") }
        return user
    }
}
