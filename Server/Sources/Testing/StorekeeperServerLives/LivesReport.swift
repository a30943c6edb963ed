import Foundation

/// What a run of lives did: figures, and its failures grouped into distinct disagreements, each with the
/// seed that shows it soonest (the fewest steps) to replay.
public struct LivesReport: Sendable {
    /// The options of the run.
    public var options: LivesOptions
    /// Lives run.
    public var lives = 0
    /// Steps taken.
    public var steps = 0
    /// Checkpoints reached.
    public var checkpoints = 0
    /// Requests made for messages.
    public var deliveries = 0
    /// Spends made.
    public var spends = 0
    /// Actions the model refused.
    public var refusals = 0
    /// Messages devices missed.
    public var missed = 0
    /// Server down windows.
    public var restarts = 0
    /// Actions performed, by kind.
    public var performed: [String: Int] = [:]
    /// Actions the model refused, by kind.
    public var refused: [String: Int] = [:]
    /// Deliveries by attempt.
    public var attempts: [String: Int] = [:]
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
        steps += outcome.steps
        checkpoints += outcome.checkpoints
        deliveries += outcome.deliveries
        spends += outcome.spends
        refusals += outcome.refusals
        missed += outcome.missed
        restarts += outcome.restarts
        performed.merge(outcome.performed, uniquingKeysWith: +)
        refused.merge(outcome.refused, uniquingKeysWith: +)
        attempts.merge(outcome.attempts, uniquingKeysWith: +)
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
        return "\(options.database), \(instances): \(lives) lives, \(steps) steps, \(checkpoints) checkpoints, \(deliveries) messages, "
            + "\(spends) spends, \(restarts) server restarts, \(missed) missed by devices, \(refusals) actions refused by the model; "
            + "\(failures.count) failed; \(String(format: "%.1f", seconds)) s"
    }

    /// What the lives did, by kind: actions performed (and refused by the model), deliveries by attempt.
    public var mix: String {
        let kinds = Set(performed.keys).union(refused.keys).sorted()
        let actions = kinds.map { "\($0) \(performed[$0, default: 0])" + (refused[$0].map { " (\($0) refused)" } ?? "") }
        let deliveries = attempts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
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
