import Hummingbird
import Logging
import Prometheus
import StorekeeperServerStorage

/// The routes `serve` answers, made from the prepared settings.
///
/// Provisional: only /health, until the StorekeeperServer library's router lands; then this builds
/// that router from `prepared`.
enum ApplicationWiring {
    static func router(
        prepared: PreparedServer, storage: SQLLedgerStorage, registry: PrometheusCollectorRegistry, logger: Logger
    ) throws(UsageError) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/health") { _, _ -> Response in
            do {
                _ = try await storage.schemaVersion()
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
            } catch {
                return Response(status: .serviceUnavailable, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"unavailable"}"#)))
            }
        }
        return router
    }
}
