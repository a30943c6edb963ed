import Foundation

/// The figures of many device lives: what they did, summed, and those that failed.
@dynamicMemberLookup
public struct DeviceLivesSummary: Sendable {
    /// Lives lived.
    public var lives = 0
    /// What they did, summed (read and written through the summary: `summary.steps`).
    public var counts = DeviceLifeCounts()
    /// The failures, by seed.
    public var failures: [DeviceLifeFailure] = []
    /// The slowest life and how long it took.
    public var slowest: (seed: UInt64, duration: Duration)?

    /// Nothing yet.
    public init() {}

    /// A count of ``counts``, by its name.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<DeviceLifeCounts, Value>) -> Value {
        get { counts[keyPath: keyPath] }
        set { counts[keyPath: keyPath] = newValue }
    }

    /// Adds one life's report.
    public mutating func add(_ report: DeviceLifeReport) {
        lives += 1
        counts.add(report.counts)
        if let failure = report.failure { failures.append(failure) }
        if report.duration > (slowest?.duration ?? .zero) { slowest = (report.seed, report.duration) }
    }

    /// The table the command prints: one figure a line.
    public func table(backend: String, elapsed: Duration) -> String {
        var rows: [(String, String)] = [
            ("backend", backend), ("lives", "\(lives)"), ("failed", "\(failures.count)"), ("devices", "\(counts.devices)"),
            ("steps", "\(counts.steps)"), ("purchases", "\(counts.purchases)"), ("relaunches", "\(counts.relaunches)"),
            ("checkpoints", "\(counts.checkpoints)"), ("spends", "\(counts.spends)"), ("deliveries", "\(counts.deliveries)"),
            ("finishes", "\(counts.finishes)"),
        ]
        for (kind, count) in counts.faults.sorted(by: { $0.key < $1.key }) { rows.append(("fault: \(kind)", "\(count)")) }
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

/// A driver of device lives on one backend: ``DeviceLifeDriver``, or one set up for a backend (``StoreKit1LifeDriver``).
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
