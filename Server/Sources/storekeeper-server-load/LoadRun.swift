import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// C clients posting signed purchases over keep-alive connections until the time is up: client k
/// takes purchases k, k + C, k + 2C... (no shared counter), one request at a time, and times each.
struct LoadRun {
    var port: Int
    var clients: Int
    var duration: Duration
    var purchases: [SignedPurchases.Request]

    struct ClientTally: Sendable {
        /// Microseconds of every answered request.
        var latencies: [Int] = []
        var statuses: [Int: Int] = [:]
        var failures: [String] = []
    }

    struct Result {
        var elapsed: Duration
        var latencies: [Int]
        var statuses: [Int: Int]
        var failures: [String]
        var clients: Int

        var recorded: Int { statuses[200] ?? 0 }

        func percentile(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let index = min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.up)) - 1)
            return Double(latencies[max(0, index)]) / 1_000
        }

        var report: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let statusList = statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            var lines = [
                "Requests answered: \(latencies.count) in \(String(format: "%.2f", seconds)) s (\(statusList))",
                "Purchases recorded (200): \(recorded), \(String(format: "%.0f", Double(recorded) / seconds))/s",
                "Latency (ms, every answer): p50 \(String(format: "%.1f", percentile(0.5))), p90 \(String(format: "%.1f", percentile(0.9))), p99 \(String(format: "%.1f", percentile(0.99))), max \(String(format: "%.1f", Double(latencies.last ?? 0) / 1_000))",
            ]
            if !failures.isEmpty { lines.append("Failed requests: \(failures.count), first: \(failures[0])") }
            return lines.joined(separator: "\n")
        }
    }

    func run() async throws -> Result {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: clients)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let url = "http://127.0.0.1:\(port)/v1/transactions"
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let (clients, purchases) = (self.clients, self.purchases)
        let tallies = await withTaskGroup(of: ClientTally.self) { group in
            for index in 0..<clients {
                group.addTask {
                    var tally = ClientTally()
                    var next = index
                    while next < purchases.count, clock.now < deadline {
                        let purchase = purchases[next]
                        next += clients
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.headers.add(name: "Authorization", value: purchase.authorization)
                        request.body = .bytes(ByteBuffer(string: purchase.body))
                        let sent = clock.now
                        do {
                            let response = try await client.execute(request, timeout: .seconds(30))
                            _ = try await response.body.collect(upTo: 1 << 20)
                            let took = sent.duration(to: clock.now)
                            tally.latencies.append(Int(took.components.seconds) * 1_000_000 + Int(took.components.attoseconds / 1_000_000_000_000))
                            tally.statuses[Int(response.status.code), default: 0] += 1
                        } catch {
                            tally.failures.append("\(error)")
                        }
                    }
                    return tally
                }
            }
            return await group.reduce(into: [ClientTally]()) { $0.append($1) }
        }
        let elapsed = start.duration(to: clock.now)
        try await client.shutdown()
        var statuses: [Int: Int] = [:]
        for tally in tallies { statuses.merge(tally.statuses, uniquingKeysWith: +) }
        return Result(
            elapsed: elapsed, latencies: tallies.flatMap(\.latencies).sorted(), statuses: statuses, failures: tallies.flatMap(\.failures),
            clients: clients)
    }
}
