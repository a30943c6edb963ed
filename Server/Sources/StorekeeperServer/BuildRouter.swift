public import Foundation
public import Hummingbird
public import Logging
public import StorekeeperServerStorage

/// The server's router: the client routes of docs/server-contract.md (v1)
/// behind client token authentication, the operator routes under
/// `/v1/operator/` behind the operator key, `GET /health` and `GET /metrics`.
///
/// Every answer that is not 2xx, an unknown route's included, has the
/// contract's error body; every request is counted in `metrics`.
///
/// - Parameters:
///   - configuration: the policy, verifiers, secrets, content store and limits.
///   - storage: the ledger, migrated.
///   - metrics: where requests and verification failures are counted.
///   - now: the clock token expiry and subscription expiry are read against.
public func buildRouter(
    configuration: ServerConfiguration, storage: any LedgerStorage, metrics: ServerMetrics,
    now: @escaping @Sendable () -> Date = { Date() }
) -> Router<ServerRequestContext> {
    let routes = ServerRoutes(configuration: configuration, storage: storage, metrics: metrics, now: now)
    let router = Router(context: ServerRequestContext.self)
    // Added before any route, so that they wrap every route and the not-found answer.
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: BodyLimitMiddleware(limit: configuration.limits.requestBody))

    // Each feature's routes are a collection of its own, in Features/.
    router.addRoutes(routes.serviceRoutes)
    router.addRoutes(routes.notificationRoutes, atPath: "/v1/notifications")
    router.group("/v1/operator")
        .add(middleware: OperatorAuthenticationMiddleware(key: configuration.operatorKey))
        .addRoutes(routes.operatorRoutes)
    router.group("/v1")
        .add(middleware: ClientAuthenticationMiddleware(
            secret: configuration.clientTokenSecret, maximumTokenSize: configuration.limits.clientToken, now: now))
        .addRoutes(routes.accountRoutes)
        .addRoutes(routes.purchaseRoutes)
        .addRoutes(routes.recordRoutes)
        .addRoutes(routes.entitlementRoutes)
        .addRoutes(routes.spendRoutes)
        .addRoutes(routes.contentRoutes)
    return router
}

/// The server as a Hummingbird application: ``buildRouter(configuration:storage:metrics:now:)``
/// served with `server` (address, server name), logging to `logger`. The caller
/// owns the storage (migrated before, closed after) and the metrics registry; it
/// may add services to run beside the server with `addServices(_:)`.
public func buildApplication(
    configuration: ServerConfiguration, storage: any LedgerStorage, metrics: ServerMetrics,
    server: ApplicationConfiguration = ApplicationConfiguration(), logger: Logger = Logger(label: "storekeeper-server")
) -> Application<RouterResponder<ServerRequestContext>> {
    Application(router: buildRouter(configuration: configuration, storage: storage, metrics: metrics), configuration: server, logger: logger)
}
