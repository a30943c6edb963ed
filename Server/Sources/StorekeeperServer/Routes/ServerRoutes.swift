import Foundation
import Hummingbird
import StorekeeperServerStorage

/// The server's handlers and what they share: the configuration, the storage,
/// the metrics and the clock. Each route is in a file of its own, as an extension.
struct ServerRoutes: Sendable {
    let configuration: ServerConfiguration
    let storage: any LedgerStorage
    let metrics: ServerMetrics
    let now: @Sendable () -> Date
}
