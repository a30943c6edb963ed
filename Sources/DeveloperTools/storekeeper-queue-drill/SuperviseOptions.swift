import StorekeeperCore
import StorekeeperQueue

/// The options of `supervise`: a reference run, then a run killed again and again.
struct SuperviseOptions: Sendable {
    /// The catalog every launch loads.
    var catalog: String
    /// The seed of the transaction stream.
    var seed: UInt64
    /// How many transactions the stream holds.
    var transactions: Int
    /// How many launches must die of SIGKILL before the drill lets one complete.
    var kills: Int
    /// Where the state folders go; a temporary folder when not given.
    var work: String?
    /// The longest timer delay; the reference launch's duration when not given.
    var maxDelayMilliseconds: Int?
    /// The probability of a self-kill at each kill point, in launches that kill themselves.
    var killProbability: Double
    /// The journal's durability, in every launch.
    var durability: JournalDurability
    /// The queue's batch limit, in every launch; its default when not given.
    var batchLimit: Int?
    /// How long a launch may run before it counts as a hang.
    var launchTimeoutSeconds: Int

    static let names: Set<String> = [
        "--catalog", "--seed", "--transactions", "--kills", "--work", "--max-delay-ms", "--kill-probability", "--durability",
        "--launch-timeout", "--batch-limit",
    ]

    /// Reads the options after `supervise`.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try OptionValues(arguments, command: "supervise", known: Self.names)
        catalog = try options.required("--catalog")
        guard let seed = try options.seed("--seed") else { throw UsageError("supervise: --seed is required") }
        self.seed = seed
        guard let transactions = try options.integer("--transactions", atLeast: 1) else {
            throw UsageError("supervise: --transactions is required")
        }
        self.transactions = transactions
        guard let kills = try options.integer("--kills", atLeast: 0) else { throw UsageError("supervise: --kills is required") }
        self.kills = kills
        work = options.text("--work")
        maxDelayMilliseconds = try options.integer("--max-delay-ms", atLeast: 0)
        killProbability = try options.probability("--kill-probability") ?? 0.02
        durability = try DrillDurability.parse(options.text("--durability"), command: "supervise")
        batchLimit = try options.integer("--batch-limit", atLeast: 1)
        launchTimeoutSeconds = try options.integer("--launch-timeout", atLeast: 1) ?? 120
    }
}
