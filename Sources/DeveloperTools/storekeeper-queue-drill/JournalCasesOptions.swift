import StorekeeperCore
import StorekeeperQueue

/// The options of `journal`: launches over journals that must be refused.
struct JournalCasesOptions: Sendable {
    /// The catalog every launch loads.
    var catalog: String
    /// The seed of the transaction stream.
    var seed: UInt64
    /// How many transactions the stream holds.
    var transactions: Int
    /// Where the state folders go; a temporary folder when not given.
    var work: String?
    /// The journal's durability, in every launch.
    var durability: JournalDurability
    /// How long a launch may run (or wait for the journal) before it counts as a hang.
    var launchTimeoutSeconds: Int

    static let names: Set<String> = ["--catalog", "--seed", "--transactions", "--work", "--durability", "--launch-timeout"]

    /// Reads the options after `journal`.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try OptionValues(arguments, command: "journal", known: Self.names)
        catalog = try options.required("--catalog")
        guard let seed = try options.seed("--seed") else { throw UsageError("journal: --seed is required") }
        self.seed = seed
        guard let transactions = try options.integer("--transactions", atLeast: 1) else {
            throw UsageError("journal: --transactions is required")
        }
        self.transactions = transactions
        work = options.text("--work")
        durability = try DrillDurability.parse(options.text("--durability"), command: "journal")
        launchTimeoutSeconds = try options.integer("--launch-timeout", atLeast: 1) ?? 120
    }
}
