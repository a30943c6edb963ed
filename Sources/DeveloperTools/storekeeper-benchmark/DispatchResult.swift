import StorekeeperCore
import StorekeeperQueue

/// The figures of `storekeeper-benchmark dispatch`.
struct DispatchResult: Sendable {
    /// The queue's contenders and the SQLite baseline each is read against, in the same round.
    static let durablePairs: [(queue: DurableContender, floor: DurableContender)] = [
        (.queueFull, .sqliteBatchedFull),
        (.queueAppCrash, .sqliteBatchedNormal),
        (.queueUnbatched, .sqliteSingleFull),
    ]

    let catalog: String
    let productSummary: String
    let excluded: [(id: String, reason: String)]
    let transactions: Int
    let durableCount: Int
    let unbatchedCount: Int
    let repetitions: Int
    /// Nanoseconds a transaction through the plans, per round.
    let planned: [Double]
    /// Nanoseconds a transaction through the bare plan loop, per round.
    let bare: [Double]
    /// Nanoseconds a transaction through the hand-written switch, per round.
    let handWritten: [Double]
    /// Plans over switch, per round.
    let ratios: [Double]
    /// Bare plan loop over switch, per round.
    let bareRatios: [Double]
    /// The hand-written dispatch's ledger after the last round, for the counts.
    let ledger: EffectLedger
    /// Transactions (or rows) a second, per round.
    let durable: [DurableContender: [Double]]
    /// Each queue contender over its SQLite baseline (``durablePairs``), per round.
    let durableRatios: [DurableContender: [Double]]

    /// The median rate of a durable contender.
    func rate(_ contender: DurableContender) -> Double? {
        durable[contender].map(Statistics.median)
    }

    /// The median of a queue contender's per-round ratios to its baseline.
    func ratio(_ contender: DurableContender) -> Double? {
        durableRatios[contender].map(Statistics.median)
    }
}
