import Hummingbird
import StorekeeperVerification

extension ServerRoutes {
    /// `POST /v1/notifications/production` and `/v1/notifications/sandbox`:
    /// App Store Server Notifications V2 for that environment, processed by
    /// ``NotificationProcessor`` (stored by UUID first, 200 only once
    /// committed, 400 forged or malformed, 503 when a retry would help). The
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
            let body = try await request.collectBody(upTo: NotificationProcessor.maximumBodySize)
            let answer = await processor.receive(body: Array(body.readableBytesView))
            if answer.status == 400 { metrics.recordVerificationFailure(reason: answer.code ?? "notification-refused") }
            guard answer.status == 200 else { throw APIError(.init(code: answer.status), answer.code ?? "refused", answer.message ?? "") }
            return Response(status: .ok)
        }
    }
}
