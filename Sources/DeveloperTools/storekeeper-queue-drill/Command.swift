/// What the command line asks for.
enum Command: Sendable {
    /// One launch of the app over a state folder.
    case run(RunOptions)
    /// A reference run, then a run killed again and again, compared.
    case supervise(SuperviseOptions)
    /// Launches over a journal emptied, cut short, or held by another process.
    case journal(JournalCasesOptions)
    /// The usage, on standard output.
    case help

    /// The command `arguments` (after the program's name) describe.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        guard let name = arguments.first else { throw UsageError("a subcommand is required: run, supervise or journal") }
        let rest = arguments.dropFirst()
        switch name {
        case "run": self = .run(try RunOptions(parsing: rest))
        case "supervise": self = .supervise(try SuperviseOptions(parsing: rest))
        case "journal": self = .journal(try JournalCasesOptions(parsing: rest))
        case "help", "-h", "--help": self = .help
        default: throw UsageError("unknown subcommand '\(name)': use run, supervise or journal")
        }
    }

    static let usage = """
        USAGE: storekeeper-queue-drill run --catalog PATH --state DIR --seed N --transactions N
                   [--kill-probability P [--kill-seed N] | --kill-at POINT [--kill-after N]]
                   [--durability full|app-crash] [--batch-limit N] [--hold FILE]
               storekeeper-queue-drill supervise --catalog PATH --seed N --transactions N --kills K
                   [--work DIR] [--max-delay-ms M] [--kill-probability P] [--durability full|app-crash]
                   [--batch-limit N] [--launch-timeout SECONDS]
               storekeeper-queue-drill journal --catalog PATH --seed N --transactions N
                   [--work DIR] [--durability full|app-crash] [--launch-timeout SECONDS]

        run        One launch of an app over the state folder DIR (journal, the store's finished log, the
                   iCloud folder): the store delivers every update of the seed's stream of N transactions
                   that it has not finished, and the queue runs until idle. Exit 0 with a JSON report on
                   standard output when everything that ended is finished; 3 when work is left (launch
                   again); 1 on an error; 2 on a usage error.
                   --kill-probability P  SIGKILL itself with probability P at each kill point
                   --kill-seed N         the seed of those draws (random when not given)
                   --kill-at POINT       SIGKILL itself the N-th time POINT is reached (--kill-after N, default 1)
                   --batch-limit N       the most store events one commit takes (the queue's default: 512)
                   --hold FILE           once the queue has the journal open, create FILE and wait until it is removed
                   Kill points: \(KillPoint.names)
        supervise  A clean launch gives the reference report; then launches over a fresh folder, each killed
                   by a timer after 0 to M ms (default: as long as the clean launch took) or killing itself
                   (probability P, default 0.02), until K launches died of SIGKILL, then launches without
                   kills until one completes. A launch that completes while kills are owed is compared with
                   the reference and the kills go on over a new folder. Prints a JSON summary; exit 0 when
                   the final report equals the reference, 1 otherwise (the first difference on standard
                   error). --work DIR keeps the folders in DIR (empty or absent); otherwise a temporary
                   folder, removed when the reports are equal.
        journal    The journal's cases, each over its own folder after a clean reference launch: the journal
                   emptied (zero-bytes) or cut within its first page (cut-short) after a complete launch, then
                   launched over: refused (exit 1, naming it), left as it is, nothing finished; a launch holding
                   the journal while a second process starts on it (second-process): the second refused as in
                   use, the first complete with the reference report; two launches started together on a fresh
                   folder (simultaneous): each complete with the reference report or refused as in use. Prints a
                   JSON summary of every launch; exit 0 when every case went as it should, 1 otherwise.
        """
}
