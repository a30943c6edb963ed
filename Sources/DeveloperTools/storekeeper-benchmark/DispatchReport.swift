import StorekeeperQueue
/// The Markdown that `storekeeper-benchmark dispatch` prints: the command, the machine, the figures and
/// the targets, ready to paste into `docs/performance.md`.
struct DispatchReport: Sendable {
    /// Dispatching through compiled plans must take at most this many times the hand-written switch.
    static let targetRatio = 1.3
    /// The durable queue must finish at least this many transactions a second.
    static let targetRate = 20_000.0

    let commandLine: String
    let host: HostDescription
    let result: DispatchResult

    /// The report, ending with a newline.
    var markdown: String {
        var lines = [
            "## Transaction queue (issue 5)",
            "",
            "Measured \(host.date) on \(host.machine) with \(host.cores) cores, by:",
            "",
            "```sh",
            commandLine,
            "```",
            "",
            inMemoryMethod,
            "",
            "| in memory | per transaction | fastest – slowest round | transactions a second | × switch |",
            "| --- | ---: | ---: | ---: | ---: |",
            inMemoryRow("`InMemoryDispatcher.dispatch` (compiled plans)", result.planned, ratios: result.ratios),
            inMemoryRow("for information: bare plan loop (every step through its plugin; no queue bookkeeping)", result.bare,
                        ratios: result.bareRatios),
            inMemoryRow("hand-written `switch`, same effects appended and applied", result.handWritten, ratios: nil),
            "",
            ratioLine,
            "",
        ]
        if !result.durable.isEmpty {
            lines += [durableMethod, "", "| durable | transactions (rows) a second | slowest – fastest round | queue / SQLite, same round |",
                      "| --- | ---: | ---: | ---: |"]
            for contender in DurableContender.allCases {
                if let row = durableRow(contender) { lines.append(row) }
            }
            lines.append("")
        }
        lines += ["Targets:", "", ratioTarget]
        if let rateTarget { lines.append(rateTarget) }
        return lines.joined(separator: "\n") + "\n"
    }

    private var inMemoryMethod: String {
        let left = result.excluded.map { "`\($0.id)` (\($0.reason))" }.joined(separator: ", ")
        var text = "In memory: `\(result.catalog)` compiled with `PolicyLoader` and an `audit-log` step plugin that appends a "
        text += "`.custom` effect, dispatching to \(result.productSummary)"
        if !left.isEmpty { text += "; left out, as they need something from outside the device: \(left)" }
        text += ". \(NumberFormatting.grouped(result.transactions)) transactions drawn with a fixed seed (a product chosen "
        text += "evenly, \(TransactionMix.summary); a quarter of consumable purchases buy more than one), handles found "
        text += "once beforehand. Before timing, every transaction's effects through the plans, through the plugins "
        text += "alone and through the switch are checked to be the same values in the same order. One warm-up "
        text += "round, then \(result.repetitions) rounds of the three loops below in an order that rotates from round to "
        text += "round; each applies its effects to the same kind of ledger, and the three ledgers are checked equal "
        text += "after every round. Medians of the rounds; the ratio is the median of the per-round ratios."
        return text
    }

    private var ratioLine: String {
        let ledger = result.ledger
        let balances = ledger.balances.sorted { $0.key < $1.key }
            .map { "\($0.key) \(NumberFormatting.grouped($0.value))" }.joined(separator: ", ")
        let ratios = result.ratios
        var text = "Plans / switch: **\(NumberFormatting.fixed(Statistics.median(ratios), decimals: 2))** "
        text += "(rounds \(NumberFormatting.fixed(ratios.min() ?? 0, decimals: 2)) – \(NumberFormatting.fixed(ratios.max() ?? 0, decimals: 2))). "
        text += "Each round granted \(balances), wrote \(NumberFormatting.grouped(ledger.custom)) audit lines, notified "
        text += "\(NumberFormatting.grouped(ledger.notifications)) times, presented \(NumberFormatting.grouped(ledger.errorsPresented)) "
        text += "errors and finished \(NumberFormatting.grouped(ledger.finished)) transactions."
        return text
    }

    private var durableMethod: String {
        var text = "Durable: a new journal per run in a temporary folder on the same disk; the store delivers every "
        text += "transaction (all purchased, products chosen evenly) at connect; time from `start()` until `whenIdle()` "
        text += "returns, with every transaction finished once and the expected entitlements (both checked). "
        text += "\(NumberFormatting.grouped(result.durableCount)) transactions batched, \(NumberFormatting.grouped(result.unbatchedCount)) "
        text += "unbatched. SQLite: as many rows (id, product, quantity, date, status) inserted through GRDB with a cached "
        text += "statement, WAL mode, in a new database. \(result.repetitions) rounds in rotating order; medians."
        return text
    }

    private func durableRow(_ contender: DurableContender) -> String? {
        guard let rates = result.durable[contender] else { return nil }
        var ratio = ""
        if let pair = DispatchResult.durablePairs.first(where: { $0.queue == contender }), let value = result.ratio(contender) {
            ratio = "\(NumberFormatting.fixed(value, decimals: 2)) of \(pair.floor)"
        }
        let median = NumberFormatting.grouped(Int(Statistics.median(rates)))
        let range = "\(NumberFormatting.grouped(Int(rates.min() ?? 0))) – \(NumberFormatting.grouped(Int(rates.max() ?? 0)))"
        return "| \(contender) | \(median) | \(range) | \(ratio) |"
    }

    private var ratioTarget: String {
        let ratio = Statistics.median(result.ratios)
        let verdict = ratio <= Self.targetRatio ? "met." : "**not met**."
        return "- Dispatching through compiled plans takes at most \(NumberFormatting.fixed(Self.targetRatio, decimals: 1)) "
            + "times the hand-written switch: \(NumberFormatting.fixed(ratio, decimals: 2)), \(verdict)"
    }

    private var rateTarget: String? {
        guard let rate = result.rate(.queueFull) else { return nil }
        let verdict = rate >= Self.targetRate ? "met." : "**not met**."
        return "- Durable dispatch (`.full`, batches of up to 512, each durable before any of its transactions is finished) "
            + "at least \(NumberFormatting.grouped(Int(Self.targetRate))) a second: \(NumberFormatting.grouped(Int(rate))), \(verdict)"
    }

    private func inMemoryRow(_ name: String, _ nanoseconds: [Double], ratios: [Double]?) -> String {
        let median = Statistics.median(nanoseconds)
        let ratio = ratios.map { NumberFormatting.fixed(Statistics.median($0), decimals: 2) } ?? "1.00"
        let range = "\(NumberFormatting.fixed(nanoseconds.min() ?? 0, decimals: 1)) – \(NumberFormatting.fixed(nanoseconds.max() ?? 0, decimals: 1))"
        return "| \(name) | \(NumberFormatting.fixed(median, decimals: 1)) ns | \(range) ns | \(NumberFormatting.grouped(Int(1e9 / median))) | \(ratio) |"
    }
}
