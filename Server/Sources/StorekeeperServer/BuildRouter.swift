import Foundation
import Hummingbird
import Logging
import StorekeeperServerStorage

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

    router.get("/health", use: routes.health)
    router.get("/metrics", use: routes.prometheusMetrics)

    let operatorRoutes = router.group("/v1/operator")
        .add(middleware: OperatorAuthenticationMiddleware(key: configuration.operatorKey))
    operatorRoutes.get("users/:user", use: routes.operatorUser)
    operatorRoutes.get("transactions/:transactionID", use: routes.operatorTransaction)
    operatorRoutes.get("notifications", use: routes.operatorNotifications)
    operatorRoutes.get("consumption-requests", use: routes.operatorConsumptionRequests)

    let client = router.group("/v1")
        .add(middleware: ClientAuthenticationMiddleware(
            secret: configuration.clientTokenSecret, maximumTokenSize: configuration.limits.clientToken, now: now))
    client.get("account", use: routes.account)
    client.post("transactions", use: routes.postTransaction)
    client.put("records/:transactionID", use: routes.putRecord)
    client.get("records", use: routes.listRecords)
    client.get("entitlements", use: routes.entitlements)
    client.put("spends/:key", use: routes.spend)
    client.get("content/**", use: routes.content)
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
