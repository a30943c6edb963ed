/// The settings of `storekeeper-benchmark dispatch`.
struct DispatchOptions: Sendable, Equatable {
    /// The catalog whose compiled plans are dispatched to.
    var catalog = "Catalogs/rocket-racer/catalog.yaml"
    /// Transactions dispatched in memory per round, through the plans and through the hand-written switch.
    var transactions = 1_000_000
    /// Purchased transactions the store delivers to the durable queue (batched) per round.
    var durable = 100_000
    /// Purchased transactions the store delivers to the unbatched durable queue (`batchLimit` 1) per round.
    var unbatched = 2_000
    /// Measured rounds, after one warm-up round.
    var repetitions = 7
    /// Where the journals and the SQLite baseline's databases are made (a new folder inside, removed after).
    var directory: String?
    /// For profilers: run only this in-memory loop (`plans`, `bare`, `switch`
    /// or `none`) or the durable queue (`queue`, `queue-unbatched`) once, or
    /// ``JournalLookups`` (`lookups`), no report.
    var profile: String?

    /// Reads the options from the arguments that follow `dispatch`: `--catalog PATH`, `--transactions N`,
    /// `--durable N`, `--unbatched N`, `--repeat N`, `--dir DIR`, each value as the next argument or after `=`.
    /// `--durable 0` skips the durable part.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing value or a value out of range.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        for (name, value) in try OptionArguments.pairs(arguments) {
            switch name {
            case "--catalog":
                catalog = value
            case "--transactions":
                transactions = try UsageError.positiveInteger(value, for: "--transactions")
            case "--durable":
                durable = value == "0" ? 0 : try UsageError.positiveInteger(value, for: "--durable")
            case "--unbatched":
                unbatched = try UsageError.positiveInteger(value, for: "--unbatched")
            case "--repeat":
                repetitions = try UsageError.positiveInteger(value, for: "--repeat")
            case "--dir":
                directory = value
            case "--profile":
                guard ["plans", "bare", "switch", "none", "queue", "queue-unbatched", "lookups"].contains(value) else {
                    throw UsageError("--profile takes plans, bare, switch, none, queue, queue-unbatched or lookups, not '\(value)'")
                }
                profile = value
            default:
                throw UsageError("unknown option '\(name)'")
            }
        }
    }
}
