import Metrics
public import Prometheus

/// The server's metrics, made through swift-metrics with a factory on the
/// registry passed in (the executable owns it and any global bootstrapping):
/// requests by route, method and status, their durations, and verification
/// failures by reason.
public struct ServerMetrics: Sendable {
    /// The registry `GET /metrics` writes out.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    /// Metrics on `registry`.
    public init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Seconds, from a millisecond to half a minute.
        factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100),
                                                   .milliseconds(500), .seconds(2), .seconds(10), .seconds(30)]
        self.factory = factory
    }

    /// Counts a request answered and records how long it took.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Counter(label: "storekeeper_http_requests_total", dimensions: dimensions, factory: factory).increment()
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        Timer(label: "storekeeper_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(nanoseconds)
    }

    /// Counts a signed transaction refused, by the verifier's reason.
    func recordVerificationFailure(reason: String) {
        Counter(label: "storekeeper_verification_failures_total", dimensions: [("reason", reason)], factory: factory).increment()
    }
}
