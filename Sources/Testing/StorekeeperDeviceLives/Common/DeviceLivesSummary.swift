import Foundation

/// The figures of many device lives: what they did, summed, and those that failed.
public struct DeviceLivesSummary: Sendable {
    /// Lives lived.
    public var lives = 0
    /// Devices (people) in them.
    public var devices = 0
    /// Steps taken.
    public var steps = 0
    /// Purchases through a queue.
    public var purchases = 0
    /// App relaunches.
    public var relaunches = 0
    /// Checkpoints passed or failed.
    public var checkpoints = 0
    /// Spends through a queue.
    public var spends = 0
    /// Transactions StoreKit gave the apps.
    public var deliveries = 0
    /// First finishes.
    public var finishes = 0
    /// Faults drawn, by kind.
    public var faults: [String: Int] = [:]
    /// The failures, by seed.
    public var failures: [DeviceLifeFailure] = []
    /// The slowest life and how long it took.
    public var slowest: (seed: UInt64, duration: Duration)?

    /// Nothing yet.
    public init() {}

    /// Adds one life's report.
    public mutating func add(_ report: DeviceLifeReport) {
        lives += 1
        devices += report.devices
        steps += report.steps
        purchases += report.purchases
        relaunches += report.relaunches
        checkpoints += report.checkpoints
        spends += report.spends
        deliveries += report.deliveries
        finishes += report.finishes
        for (kind, count) in report.faults { faults[kind, default: 0] += count }
        if let failure = report.failure { failures.append(failure) }
        if report.duration > (slowest?.duration ?? .zero) { slowest = (report.seed, report.duration) }
    }

    /// The table the command prints: one figure a line.
    public func table(backend: String, elapsed: Duration) -> String {
        var rows: [(String, String)] = [
            ("backend", backend), ("lives", "\(lives)"), ("failed", "\(failures.count)"), ("devices", "\(devices)"), ("steps", "\(steps)"),
            ("purchases", "\(purchases)"), ("relaunches", "\(relaunches)"), ("checkpoints", "\(checkpoints)"), ("spends", "\(spends)"),
            ("deliveries", "\(deliveries)"), ("finishes", "\(finishes)"),
        ]
        for (kind, count) in faults.sorted(by: { $0.key < $1.key }) { rows.append(("fault: \(kind)", "\(count)")) }
        rows.append(("time", Self.seconds(elapsed)))
        if let slowest { rows.append(("slowest life", "\(slowest.seed) (\(Self.seconds(slowest.duration)))")) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }

    static func seconds(_ duration: Duration) -> String {
        let components = duration.components
        return String(format: "%.1f s", Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }
}

/// A driver of device lives on one backend: ``DeviceLifeDriver``, or a backend's own (StoreKit 1's).
public protocol DeviceLivesDriver: Sendable {
    /// Lives the life of `seed` and reports what it did, and its failure if it failed.
    func live(seed: UInt64) async -> DeviceLifeReport
    /// The command that replays the life of `seed`.
    func replayCommand(seed: UInt64) -> String
}

extension DeviceLifeDriver: DeviceLivesDriver {}

extension DeviceLivesDriver {
    /// Lives the life of every seed, `jobs` at a time, calling `onLife` with each report as it ends (in the
    /// order they end); answers the summary, failures sorted by seed.
    public func live(seeds: [UInt64], jobs: Int, onLife: @Sendable (DeviceLifeReport) -> Void = { _ in }) async -> DeviceLivesSummary {
        var summary = DeviceLivesSummary()
        await withTaskGroup(of: DeviceLifeReport.self) { group in
            var next = seeds.makeIterator()
            for _ in 0..<max(1, jobs) {
                guard let seed = next.next() else { break }
                group.addTask { await self.live(seed: seed) }
            }
            while let report = await group.next() {
                summary.add(report)
                onLife(report)
                if let seed = next.next() { group.addTask { await self.live(seed: seed) } }
            }
        }
        summary.failures.sort { $0.seed < $1.seed }
        return summary
    }
}
