/// What the command line asks for.
enum Command: Sendable {
    /// One launch of the app over a state folder.
    case run(RunOptions)
    /// A reference run, then a run killed again and again, compared.
    case supervise(SuperviseOptions)
    /// The usage, on standard output.
    case help

    /// The command `arguments` (after the program's name) describe.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        guard let name = arguments.first else { throw UsageError("a subcommand is required: run or supervise") }
        let rest = arguments.dropFirst()
        switch name {
        case "run": self = .run(try RunOptions(parsing: rest))
        case "supervise": self = .supervise(try SuperviseOptions(parsing: rest))
        case "help", "-h", "--help": self = .help
        default: throw UsageError("unknown subcommand '\(name)': use run or supervise")
        }
    }

    static let usage = """
        USAGE: storekeeper-queue-drill run --catalog PATH --state DIR --seed N --transactions N
                   [--kill-probability P [--kill-seed N] | --kill-at POINT [--kill-after N]]
                   [--durability full|app-crash] [--batch-limit N]
               storekeeper-queue-drill supervise --catalog PATH --seed N --transactions N --kills K
                   [--work DIR] [--max-delay-ms M] [--kill-probability P] [--durability full|app-crash]
                   [--batch-limit N] [--launch-timeout SECONDS]

        run        One launch of an app over the state folder DIR (journal, the store's finished log, the
                   iCloud folder): the store delivers every update of the seed's stream of N transactions
                   that it has not finished, and the queue runs until idle. Exit 0 with a JSON report on
                   standard output when everything that ended is finished; 3 when work is left (launch
                   again); 1 on an error; 2 on a usage error.
                   --kill-probability P  SIGKILL itself with probability P at each kill point
                   --kill-seed N         the seed of those draws (random when not given)
                   --kill-at POINT       SIGKILL itself the N-th time POINT is reached (--kill-after N, default 1)
                   --batch-limit N       the most store events one commit takes (the queue's default: 512)
                   Kill points: \(KillPoint.names)
        supervise  A clean launch gives the reference report; then launches over a fresh folder, each killed
                   by a timer after 0 to M ms (default: as long as the clean launch took) or killing itself
                   (probability P, default 0.02), until K launches died of SIGKILL, then launches without
                   kills until one completes. A launch that completes while kills are owed is compared with
                   the reference and the kills go on over a new folder. Prints a JSON summary; exit 0 when
                   the final report equals the reference, 1 otherwise (the first difference on standard
                   error). --work DIR keeps the folders in DIR (empty or absent); otherwise a temporary
                   folder, removed when the reports are equal.
        """
}
