/// What the benchmark was asked to do, read from its command line by hand.
enum Command: Sendable, Equatable {
    /// Write a catalog of this many products to a file.
    case generate(productCount: Int, path: String)
    /// Run libyaml's bare event scan over a file.
    case scan(path: String)
    /// Generate catalogs and measure `storekeeper validate`, with and without its policy rules, against the bare scan.
    case run(RunOptions)
    /// Compile a generated catalog in this process and time dispatching transactions to their plans.
    case lookups(LookupOptions)
    /// Time dispatch through compiled plans against a hand-written switch, and the durable queue against raw SQLite commits.
    case dispatch(DispatchOptions)
    /// Print the usage.
    case help

    /// How to call the benchmark.
    static let usage = """
        Usage:
          storekeeper-benchmark generate N FILE
              Write a valid catalog of N products to FILE, the same text every time.
          storekeeper-benchmark scan FILE
              Run libyaml's event parser over FILE and nothing else; exit 1 on a syntax error.
          storekeeper-benchmark run [--storekeeper PATH] [--sizes 10000,100000] [--typo-sizes 10000,40000]
                                    [--repeat 7] [--out DIR]
              Generate a catalog of each size into DIR (default .build/benchmark), then time, in
              child processes, `scan FILE`, `PATH validate FILE --no-policy --format json
              --max-file-size 512MiB` (format only), the same without --no-policy (format and
              policy rules; PATH defaults to the storekeeper next to this executable) and `PATH
              compile FILE --output DIR/catalog-N.policy.json --max-file-size 512MiB`: one warm-up
              round, which must report no diagnostic, then --repeat measured rounds of the four,
              in an order that rotates each round. Then, for each of --typo-sizes (default
              10000,40000; `none` skips them), a catalog whose every product writes `prise:` for
              `price:`: --repeat rounds of the scan and the validation (which must exit 1), in
              alternating order. Prints a Markdown report.
          storekeeper-benchmark lookups [--products 10000] [--transactions 1000000] [--repeat 15]
              In this process: generate a catalog, load and compile it, draw the transactions with a
              fixed seed, then time dispatching every one to its plan (by handle, to the plan, by
              product id) against reading plan numbers worked out in advance: one warm-up round,
              then --repeat rounds, in an order that rotates each round. Prints a Markdown report.
          storekeeper-benchmark dispatch [--transactions 1000000] [--durable 100000] [--unbatched 2000]
                                         [--repeat 7] [--catalog Catalogs/rocket-racer/catalog.yaml] [--dir DIR]
              In this process: compile Rocket Racer's catalog with an `audit-log` step, check that every
              transaction's effects through InMemoryDispatcher (compiled plans) are those a hand-written switch
              appends, then time the two (and a bare plan loop) in rotating order, checking their ledgers
              agree after each round; then a
              TransactionQueue with a new journal in DIR (default: the temporary folder) finishing --durable
              purchases (.full and .appCrash, batchLimit 512) and --unbatched ones (batchLimit 1), against
              raw SQLite commits (GRDB, WAL, synchronous FULL and NORMAL, 1 and 512 rows a commit) on the
              same disk, in rotating order. --durable 0 skips the durable part. Prints a Markdown report.
              With --profile plans|bare|switch|none|queue|queue-unbatched|lookups (for perf or callgrind):
              run that alone once.
        """

    /// Reads the command from the arguments after the program's name.
    ///
    /// - Throws: ``UsageError`` when they do not form a command.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        guard let name = arguments.first else { throw UsageError("missing command") }
        let rest = arguments.dropFirst()
        switch name {
        case "generate":
            guard rest.count == 2, let count = rest.first, let path = rest.last else {
                throw UsageError("generate takes a number of products and a file")
            }
            self = .generate(productCount: try UsageError.positiveInteger(count, for: "N"), path: path)
        case "scan":
            guard rest.count == 1, let path = rest.first else { throw UsageError("scan takes one file") }
            self = .scan(path: path)
        case "run":
            self = rest.contains("--help") || rest.contains("-h") ? .help : .run(try RunOptions(parsing: rest))
        case "lookups":
            self = rest.contains("--help") || rest.contains("-h") ? .help : .lookups(try LookupOptions(parsing: rest))
        case "dispatch":
            self = rest.contains("--help") || rest.contains("-h") ? .help : .dispatch(try DispatchOptions(parsing: rest))
        case "help", "--help", "-h":
            self = .help
        default:
            throw UsageError("unknown command '\(name)'")
        }
    }
}
