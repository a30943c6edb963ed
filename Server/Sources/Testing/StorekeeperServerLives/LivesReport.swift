import Foundation

/// What a run of lives did: figures, and its failures grouped into distinct disagreements, each with the
/// seed that shows it soonest (the fewest steps) to replay.
public struct LivesReport: Sendable {
    /// The options of the run.
    public var options: LivesOptions
    /// Lives run.
    public var lives = 0
    /// What its lives did, counted.
    public var counts = LifeCounts()
    /// Seconds the run took.
    public var seconds = 0.0
    /// Every failure, in the order met.
    public var failures: [LifeFailure] = []

    /// A report of a run with `options`.
    public init(options: LivesOptions) {
        self.options = options
    }

    /// Adds a life's figures.
    public mutating func add(_ outcome: LifeOutcome) {
        lives += 1
        counts.add(outcome.counts)
        if let failure = outcome.failure { failures.append(failure) }
    }

    /// Distinct disagreements (by signature), each with its earliest-failing seed and how many lives met it.
    public var distinct: [(failure: LifeFailure, lives: Int)] {
        var groups: [String: (LifeFailure, Int)] = [:]
        var order: [String] = []
        for failure in failures {
            if let (kept, count) = groups[failure.signature] {
                groups[failure.signature] = (failure.step < kept.step ? failure : kept, count + 1)
            } else {
                groups[failure.signature] = (failure, 1)
                order.append(failure.signature)
            }
        }
        return order.compactMap { groups[$0] }.map { (failure: $0.0, lives: $0.1) }
    }

    /// One line of figures.
    public var figures: String {
        let instances = options.instances == 1 ? "1 instance" : "\(options.instances) instances"
        return "\(options.database), \(instances): \(lives) lives, \(counts.steps) steps, \(counts.checkpoints) checkpoints, \(counts.deliveries) messages, "
            + "\(counts.spends) spends, \(counts.restarts) server restarts, \(counts.missed) missed by devices, \(counts.refusals) actions refused by the model; "
            + devicesFigures + "\(failures.count) failed; \(String(format: "%.1f", seconds)) s"
    }

    /// With devices: what they did, for ``figures``.
    private var devicesFigures: String {
        guard options.devices else { return "" }
        return "devices: \(counts.purchasesThroughQueues) purchases through queues, \(counts.updatesToDevices) updates, "
            + "\(counts.relaunches) relaunches, \(counts.storeKitFaults) StoreKit faults, \(counts.deviceChecks) device checkpoints; "
    }

    /// What the lives did, by kind: actions performed (and refused by the model), deliveries by attempt.
    public var mix: String {
        let (performed, refused) = (counts.performed, counts.refused)
        let kinds = Set(performed.keys).union(refused.keys).sorted()
        let actions = kinds.map { "\($0) \(performed[$0, default: 0])" + (refused[$0].map { " (\($0) refused)" } ?? "") }
        let deliveries = counts.attempts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "actions: " + actions.joined(separator: ", ") + "\ndeliveries: " + deliveries.joined(separator: ", ")
    }

    /// The distinct disagreements, each with its replay and story.
    public func failureReport(storyLines: Int? = 40) -> String {
        distinct.map { "[\($0.lives) of \(lives) lives] " + $0.failure.report(storyLines: storyLines) }.joined(separator: "\n\n")
    }
}

extension LivesDriver {
    /// Runs the lives of `seeds` one after another; `progress` is told of each outcome.
    public func run(seeds: some Sequence<UInt64>, progress: (LifeOutcome) -> Void = { _ in }) async -> LivesReport {
        var report = LivesReport(options: options)
        let start = ContinuousClock.now
        for seed in seeds {
            let outcome = await run(seed: seed)
            report.add(outcome)
            progress(outcome)
        }
        let elapsed = ContinuousClock.now - start
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return report
    }
}
