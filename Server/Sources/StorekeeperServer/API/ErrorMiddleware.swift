import Hummingbird
import Logging
import NIOCore
import StorekeeperContract
import StorekeeperServerStorage

/// Turns every failure into the contract's error body: an ``APIError`` as it
/// is, a storage that cannot answer now (``StorageError/transient(_:)``) into
/// 503 `unavailable`, Hummingbird's own refusals (no route, a body over the
/// limit) and a body read past the limit (`NIOTooManyBytesError`, a chunked
/// body) into their status with a code, and anything else into 500 `internal`
/// whose message names nothing of the server's insides (the log has them).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The statuses of refusals logged at `info`: 403 (another user's), 409 (a spend or a record refused)
    /// and 422 (a transaction that does not verify). Not 400, 401 or 404, which a client's own mistakes
    /// and expired credentials make often, and which its answer already explains.
    static var refusalsLogged: Set<Int> { [403, 409, 422] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Self.answer(for: error, request: request, logger: context.logger).response
        }
    }

    /// The refusal that answers `error`.
    static func answer(for error: any Error, request: Request, logger: Logger) -> APIError {
        switch error {
        case let refusal as APIError:
            // A purchase refused (a transaction that does not verify, another user's, a spend the balance
            // cannot pay) is an operator's question later: said at the default level, never with a credential.
            if Self.refusalsLogged.contains(refusal.status.code) {
                logger.info("request refused", metadata: [
                    "status": .stringConvertible(refusal.status.code), "code": .string(refusal.code), "message": .string(refusal.message),
                    "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                ])
            }
            return refusal
        case StorageError.transient(let why):
            logger.warning("storage unavailable", metadata: ["why": .string(why)])
            return .unavailable("the server's storage cannot answer now; try again later")
        case is NIOTooManyBytesError:
            // A body read past the limit without a Content-Length that said so (chunked): the same answer as one that did.
            return APIError(.contentTooLarge, .bodyTooLarge, "the request's body is larger than this server accepts")
        case let http as HTTPError:
            switch http.status {
            case .notFound:
                return .notFound("no route \(request.method) \(request.uri.path)")
            case .contentTooLarge:
                return APIError(.contentTooLarge, .bodyTooLarge, "the request's body is larger than this server accepts")
            case .methodNotAllowed:
                return APIError(.methodNotAllowed, .methodNotAllowed, "\(request.uri.path) does not take \(request.method)")
            default:
                return APIError(http.status, rawCode: "http-\(http.status.code)", http.body ?? http.status.reasonPhrase)
            }
        default:
            logger.error("unexpected failure", metadata: ["error": .string(String(describing: error)), "path": .string(request.uri.path)])
            return APIError(.internalServerError, .internal, "the server failed to answer; the failure is in its log")
        }
    }
}
