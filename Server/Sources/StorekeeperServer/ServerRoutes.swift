import Foundation
import Hummingbird
import StorekeeperServerStorage

/// The server's handlers and what they share: the configuration, the storage,
/// the metrics and the clock. Each feature (Features/) adds its handlers as an extension, and
/// their routes as a `RouteCollection` that ``buildRouter(configuration:storage:metrics:now:)`` mounts.
struct ServerRoutes: Sendable {
    let configuration: ServerConfiguration
    let storage: any LedgerStorage
    let metrics: ServerMetrics
    let now: @Sendable () -> Date
}
