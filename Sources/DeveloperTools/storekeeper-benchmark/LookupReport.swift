/// The Markdown that `storekeeper-benchmark lookups` prints: the command, the machine, the table of
/// time per lookup against the baseline, and the target, ready to paste into `docs/performance.md`.
struct LookupReport: Sendable {
    /// A lookup (a dispatch of one transaction to its plan) must take under this many nanoseconds.
    static let targetNanoseconds = 50.0

    /// The benchmark's command line, as typed.
    let commandLine: String
    /// Where and when it ran.
    let host: HostDescription
    /// The number of measured rounds.
    let repetitions: Int
    /// The figures.
    let result: LookupResult

    /// The report, ending with a newline.
    var markdown: String {
        var lines = [
            "## Dispatch: plan lookups in a compiled policy",
            "",
            "Measured \(host.date) on \(host.machine) with \(host.cores) cores, by:",
            "",
            "```sh",
            commandLine,
            "```",
            "",
            "In one process: the generated catalog of \(NumberFormatting.grouped(result.products)) products "
                + "(\(NumberFormatting.grouped(result.catalogBytes)) bytes) loaded from memory and compiled with "
                + "`PolicyCompiler().compile(catalog)` (\(NumberFormatting.grouped(result.plans)) distinct plans), then "
                + "\(NumberFormatting.grouped(result.transactions)) transactions drawn with a fixed seed: a product "
                + "chosen evenly, and \(TransactionMix.summary). One warm-up round, then \(repetitions) rounds of the "
                + "four loops below, in an order that rotates from round to round; each loop walks every transaction "
                + "once and sums what it finds (every sum is checked against the one worked out in advance). Times "
                + "are medians over the rounds of the wall time per transaction (the fastest and slowest rounds "
                + "beside them); ratios and additions are medians of the per-round ones.",
            "",
            "| loop | per transaction | fastest – slowest round | × baseline | added to baseline |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for variant in LookupVariant.allCases {
            let cells = [
                "\(variant): `\(variant.code)`",
                "\(NumberFormatting.fixed(result.median(variant), decimals: 2)) ns",
                "\(NumberFormatting.fixed(result.fastest(variant), decimals: 2)) – "
                    + "\(NumberFormatting.fixed(result.slowest(variant), decimals: 2)) ns",
                NumberFormatting.fixed(result.ratio(variant), decimals: 2),
                variant == .baseline ? "" : "\(NumberFormatting.fixed(result.added(variant), decimals: 2)) ns",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        let setup = result.setup
        lines += [
            "",
            "Before the loops, one run each, for information: generating the catalog's text "
                + "\(NumberFormatting.fixed(setup.generate, decimals: 1)) ms, loading it from memory (parsing, "
                + "decoding, cross-file checks) \(NumberFormatting.fixed(setup.load, decimals: 1)) ms, the policy rules "
                + "\(NumberFormatting.fixed(setup.rules, decimals: 1)) ms (median of 7), compiling "
                + "\(NumberFormatting.fixed(setup.compile, decimals: 1)) ms (median of 7: "
                + "\(NumberFormatting.fixed(100 * setup.compile / (setup.load + setup.rules), decimals: 1))% of validation, "
                + "loading and rules), encoding the policy as indented JSON "
                + "\(NumberFormatting.fixed(setup.encode, decimals: 1)) ms "
                + "(\(NumberFormatting.grouped(setup.policyBytes)) bytes, not written).",
            "",
            "Targets:",
            "",
            "- " + targetLine,
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The target, read on both ways of finding a product: by handle (the dispatch table alone) and by
    /// id (hashing the id first).
    private var targetLine: String {
        let byHandle = result.median(.planIndexByHandle)
        let byID = result.median(.planIndexByID)
        let verdict = switch (byHandle < Self.targetNanoseconds, byID < Self.targetNanoseconds) {
        case (true, true): "met"
        case (true, false): "met by handle, **not met** by id"
        case (false, true): "**not met** by handle, met by id"
        case (false, false): "**not met**"
        }
        return "A lookup takes under \(NumberFormatting.fixed(Self.targetNanoseconds, decimals: 0)) ns: "
            + "\(NumberFormatting.fixed(byHandle, decimals: 2)) ns (by handle), "
            + "\(NumberFormatting.fixed(byID, decimals: 2)) ns (by id), \(verdict)."
    }
}
