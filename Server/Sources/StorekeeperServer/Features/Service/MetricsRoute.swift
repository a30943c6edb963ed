import Hummingbird
import Prometheus

extension ServerRoutes {
    /// `GET /metrics`: the registry in Prometheus's text exposition format.
    @Sendable func prometheusMetrics(_ request: Request, context: ServerRequestContext) async throws -> Response {
        var bytes: [UInt8] = []
        metrics.registry.emit(into: &bytes)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
