import Foundation
import Hummingbird
import Logging
import NIOCore
import Prometheus
import StorekeeperServer
import StorekeeperServerStorage

/// One server instance of a life, in this process: the server's own router (``buildRouter``) on a free
/// port of loopback, reading the life's clock, over a storage the life owns. It can be stopped and started
/// again on the same storage (the server down for a while); each start listens on a new port.
final class LifeInstance: @unchecked Sendable {
    // @unchecked: `task` and `port` are touched only by the driver's one task, between awaits.
    private let configuration: ServerConfiguration
    private let storage: any LedgerStorage
    private let clock: LifeClock
    private var task: Task<Void, any Error>?
    private(set) var port: Int?

    init(configuration: ServerConfiguration, storage: any LedgerStorage, clock: LifeClock) {
        self.configuration = configuration
        self.storage = storage
        self.clock = clock
    }

    /// `http://127.0.0.1:PORT` while it runs.
    var baseURL: String? { port.map { "http://127.0.0.1:\($0)" } }

    /// Starts serving and returns once it listens (ten seconds at most: a guard, not a measurement).
    func start() async throws {
        let clock = self.clock
        let router = buildRouter(
            configuration: configuration, storage: storage, metrics: ServerMetrics(registry: PrometheusCollectorRegistry()), now: { clock.now })
        var logger = Logger(label: "storekeeper-server-lives")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: logger)
        task = Task { try await application.runService(gracefulShutdownSignals: []) }
        let listening = try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask { await ports.first { _ in true } }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let listening, listening > 0 else {
            await stop()
            throw LivesError("a server instance did not listen on loopback within ten seconds")
        }
        port = listening
    }

    /// Stops serving (the storage stays open).
    func stop() async {
        task?.cancel()
        _ = await task?.result
        task = nil
        port = nil
    }
}

/// A failure of the lives' own machinery (not a disagreement).
public struct LivesError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
