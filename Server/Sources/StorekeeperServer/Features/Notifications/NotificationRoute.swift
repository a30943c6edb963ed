import Hummingbird
import Logging
import NIOCore
import StorekeeperContract
import StorekeeperVerification

extension ServerRoutes {
    /// `POST /v1/notifications/production` and `/v1/notifications/sandbox`:
    /// App Store Server Notifications V2 for that environment, processed by
    /// ``NotificationProcessor`` (stored by UUID first, 200 only once
    /// committed, 400 forged or malformed, 413 over the 65 KiB a notification
    /// can take, 503 `unavailable` when a retry would help, its detail logged,
    /// never answered: the caller is unauthenticated). The
    /// App Store authenticates nothing but its signature, so these routes take
    /// no credential; an environment the server does not accept is 404.
    func notifications(for environment: SignedDataVerifier.Environment) -> @Sendable (Request, ServerRequestContext) async throws -> Response {
        let processor = configuration.verifiers.byEnvironment[environment].map {
            NotificationProcessor(storage: storage, policy: configuration.policy, verifier: $0, now: now)
        }
        let metrics = metrics
        return { request, context in
            guard let processor else {
                throw APIError.notFound("this server does not accept \(environment.rawValue) notifications")
            }
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: NotificationProcessor.maximumBodySize)
            } catch is NIOTooManyBytesError {
                // A chunked body, or one whose Content-Length is under the server's limit but over this route's.
                throw APIError(
                    .contentTooLarge, .bodyTooLarge,
                    "a notification's body is at most \(NotificationProcessor.maximumBodySize) bytes (a signedPayload of at most \(SignedDataVerifier.maximumSize) bytes, and its JSON)")
            }
            let answer = await processor.receive(body: Array(body.readableBytesView))
            if answer.status == 400 { metrics.recordVerificationFailure(reason: answer.code ?? "notification-refused") }
            if answer.status == 503 {
                // The caller is unauthenticated: the detail (a storage error names hosts and users) goes to the log only.
                context.logger.warning(
                    "notification not acknowledged, for Apple to retry", metadata: ["code": .string(answer.code ?? ""), "detail": .string(answer.message ?? "")])
                throw APIError.unavailable("the notification could not be processed now; send it again")
            }
            guard answer.status == 200 else { throw APIError(.init(code: answer.status), rawCode: answer.code ?? ErrorCode.malformedNotification.rawValue, answer.message ?? "") }
            return Response(status: .ok)
        }
    }
}

extension ServerRoutes {
    /// The App Store's notifications, under `/v1/notifications`, authenticated by their signature alone:
    /// `POST production`, `POST sandbox`.
    var notificationRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.post("production", use: notifications(for: .production))
        routes.post("sandbox", use: notifications(for: .sandbox))
        return routes
    }
}
