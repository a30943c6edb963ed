import StorekeeperCore
import StorekeeperQueue

/// The options of `run`: one launch of the app over a state folder.
struct RunOptions: Sendable {
    /// The catalog (YAML) or compiled policy (JSON) the app loads.
    var catalog: String
    /// The state folder: journal, the store's finished log, the iCloud folder, user defaults.
    var state: String
    /// The seed of the transaction stream.
    var seed: UInt64
    /// How many transactions the stream holds.
    var transactions: Int
    /// When the launch kills itself.
    var kill: KillSwitch.Mode
    /// The journal's durability.
    var durability: JournalDurability
    /// The most store events one batch (one durable commit) takes; the queue's default when not given.
    var batchLimit: Int?
    /// A file the launch creates once its queue has the journal open, then
    /// waits until it is removed: how a second process is made to meet it.
    var hold: String?

    static let names: Set<String> = [
        "--catalog", "--state", "--seed", "--transactions", "--kill-probability", "--kill-seed", "--kill-at", "--kill-after",
        "--durability", "--batch-limit", "--hold",
    ]

    /// The arguments of a `run` (after the program's name) over `state`, without kills.
    static func arguments(catalog: String, state: String, seed: UInt64, transactions: Int, durability: JournalDurability,
                          batchLimit: Int?) -> [String] {
        ["run", "--catalog", catalog, "--state", state, "--seed", "\(seed)", "--transactions", "\(transactions)",
         "--durability", DrillDurability.spelling(durability)]
            + (batchLimit.map { ["--batch-limit", "\($0)"] } ?? [])
    }

    /// Reads the options after `run`.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try OptionValues(arguments, command: "run", known: Self.names)
        catalog = try options.required("--catalog")
        state = try options.required("--state")
        guard let seed = try options.seed("--seed") else { throw UsageError("run: --seed is required") }
        self.seed = seed
        guard let transactions = try options.integer("--transactions", atLeast: 1) else {
            throw UsageError("run: --transactions is required")
        }
        self.transactions = transactions
        durability = try DrillDurability.parse(options.text("--durability"), command: "run")
        batchLimit = try options.integer("--batch-limit", atLeast: 1)
        hold = options.text("--hold")
        let probability = try options.probability("--kill-probability")
        let killSeed = try options.seed("--kill-seed")
        let killAfter = try options.integer("--kill-after", atLeast: 1)
        switch (probability, options.text("--kill-at")) {
        case (_?, _?):
            throw UsageError("run: --kill-probability and --kill-at exclude each other")
        case (let probability?, nil):
            guard killAfter == nil else { throw UsageError("run: --kill-after goes with --kill-at") }
            // Without a seed, a different one each launch: the supervisor passes one so that a failure can be replayed.
            kill = .random(probability: probability, seed: killSeed ?? UInt64.random(in: 0...UInt64.max))
        case (nil, let name?):
            guard killSeed == nil else { throw UsageError("run: --kill-seed goes with --kill-probability") }
            guard let point = KillPoint(rawValue: name) else {
                throw UsageError("run: --kill-at must name a kill point (\(KillPoint.names)), not '\(name)'")
            }
            kill = .at(point, count: killAfter ?? 1)
        case (nil, nil):
            guard killSeed == nil else { throw UsageError("run: --kill-seed goes with --kill-probability") }
            guard killAfter == nil else { throw UsageError("run: --kill-after goes with --kill-at") }
            kill = .never
        }
    }
}
