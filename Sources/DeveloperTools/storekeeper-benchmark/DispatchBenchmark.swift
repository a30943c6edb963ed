import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// `storekeeper-benchmark dispatch`: the transaction queue's speed targets.
///
/// In memory: every transaction of a ``DispatchWorkload`` through `InMemoryDispatcher` (compiled plans,
/// step plugins, effects applied to a ledger) against ``HandWrittenDispatch`` (a `switch` appending the
/// same effects and applying them to the same kind of ledger), one warm-up round then
/// ``DispatchOptions/repetitions`` rounds, in an order that rotates from round to round. Before timing,
/// ``SameEffectsCheck`` compares every transaction's effects; after every round, the ledgers must be equal.
///
/// For information, one more loop over the same transactions in the same rounds: ``BarePlanDispatch``.
///
/// Durable: a `TransactionQueue` with a new journal per run, fed by a ``BenchmarkStore`` that delivers
/// every transaction on connect, timed from `start()` until idle with every transaction finished, three
/// ways, against raw SQLite commits on the same disk (``DurableContender``), in rotating order.
struct DispatchBenchmark {
    /// The settings of this run.
    let options: DispatchOptions

    /// For profilers (`--profile`): builds the workload, runs one in-memory loop once (or none, to
    /// measure the setup alone) or the durable queue once (`.full`, batched or not), prints its time on
    /// standard error.
    func profile(_ loop: String) async throws {
        let workload = try DispatchWorkload(catalogPath: options.catalog)
        var ledger = EffectLedger()
        if loop == "lookups" {
            let root = options.directory ?? FileManager.default.temporaryDirectory.path
            let path = "\(root)/storekeeper-lookups-\(UUID().uuidString).sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let purchases = workload.purchases(options.durable, idBase: 3_000_000_000_000_000, date: Date())
            for (way, microseconds) in try JournalLookups.measure(purchases, path: path) {
                StandardError.print("\(way): \(NumberFormatting.fixed(microseconds, decimals: 2)) µs a lookup")
            }
            return
        }
        if loop == "queue" || loop == "queue-unbatched" {
            let unbatched = loop == "queue-unbatched"
            let purchases = workload.purchases(unbatched ? options.unbatched : options.durable, idBase: 3_000_000_000_000_000, date: Date())
            _ = HandWrittenDispatch.run(purchases, products: workload.handWritten, into: &ledger)
            let root = options.directory ?? FileManager.default.temporaryDirectory.path
            let rate = try await (unbatched ? DurableContender.queueUnbatched : .queueFull).run(
                policy: workload.policy, transactions: purchases, expected: ledger.entitlements(policy: workload.policy), folder: root)
            StandardError.print("\(loop): \(purchases.count) transactions, \(NumberFormatting.grouped(Int(rate))) a second")
            return
        }
        let transactions = workload.mixedTransactions(options.transactions)
        var dispatcher = InMemoryDispatcher(policy: workload.policy)
        let environment = StepEnvironment(policy: workload.policy, services: EngineServices())
        let start = MonotonicClock.nanoseconds()
        let completed = switch loop {
        case "plans": await PlannedDispatch.run(transactions, into: &dispatcher)
        case "bare": await BarePlanDispatch.run(transactions, policy: workload.policy, environment: environment, into: &ledger)
        case "switch": HandWrittenDispatch.run(transactions, products: workload.handWritten, into: &ledger)
        default: transactions.count
        }
        let end = MonotonicClock.nanoseconds()
        StandardError.print("\(loop): \(completed) transactions, \(NumberFormatting.fixed(Double(end - start) / Double(transactions.count), decimals: 1)) ns each")
    }

    /// Measures, reporting progress on standard error.
    ///
    /// - Throws: ``BenchmarkError`` when the catalog does not load, a plan is not what the hand-written
    ///   dispatch does, or the contenders do not end with the same entitlements.
    func run() async throws -> DispatchResult {
        let workload = try DispatchWorkload(catalogPath: options.catalog)
        StandardError.print("""
            \(options.catalog): \(workload.policy.products.count) products, \(workload.policy.plans.count) plans \
            (loaded and compiled in \(NumberFormatting.fixed(workload.loadMilliseconds, decimals: 1)) ms); dispatching to \
            \(workload.productSummary)
            """)
        let transactions = workload.mixedTransactions(options.transactions)
        try await SameEffectsCheck.check(transactions, workload: workload)
        StandardError.print("plans, plugins and the hand-written switch append the same effects for every transaction (checked)")
        let inMemory = try await measureInMemory(workload, transactions)
        var durable: [DurableContender: [Double]] = [:]
        var durableRatios: [DurableContender: [Double]] = [:]
        if options.durable > 0 {
            (durable, durableRatios) = try await measureDurable(workload)
        }
        return DispatchResult(
            catalog: options.catalog, productSummary: workload.productSummary, excluded: workload.excluded,
            transactions: options.transactions, durableCount: options.durable, unbatchedCount: options.unbatched,
            repetitions: options.repetitions, planned: inMemory.planned, bare: inMemory.bare,
            handWritten: inMemory.handWritten, ratios: inMemory.ratios, bareRatios: inMemory.bareRatios,
            ledger: inMemory.ledger, durable: durable, durableRatios: durableRatios)
    }

    private enum InMemoryContender: CustomStringConvertible {
        case planned, bare, handWritten
        var description: String {
            switch self {
            case .planned: "plans"
            case .bare: "bare plan loop"
            case .handWritten: "switch"
            }
        }
    }

    private struct InMemoryFigures {
        var planned: [Double] = []
        var bare: [Double] = []
        var handWritten: [Double] = []
        var ratios: [Double] = []
        var bareRatios: [Double] = []
        var ledger = EffectLedger()
    }

    /// Times the in-memory contenders once each per round (plus a warm-up round), in nanoseconds a
    /// transaction, checking after every round that they applied the same effects to their ledgers.
    private func measureInMemory(_ workload: DispatchWorkload, _ transactions: [DispatchTransaction]) async throws -> InMemoryFigures {
        var figures = InMemoryFigures()
        let count = transactions.count
        let environment = StepEnvironment(policy: workload.policy, services: EngineServices())
        for round in -1..<options.repetitions {
            var times: [InMemoryContender: Double] = [:]
            var dispatcher = InMemoryDispatcher(policy: workload.policy)
            var bareLedger = EffectLedger()
            var ledger = EffectLedger()
            for contender in RotatingOrder.order(of: [InMemoryContender.planned, .bare, .handWritten], inRound: max(0, round)) {
                let input = Opaque.pass(transactions)
                let start = MonotonicClock.nanoseconds()
                let completed: Int
                switch contender {
                case .planned:
                    completed = await PlannedDispatch.run(input, into: &dispatcher)
                case .bare:
                    completed = await BarePlanDispatch.run(input, policy: workload.policy, environment: environment, into: &bareLedger)
                case .handWritten:
                    completed = HandWrittenDispatch.run(input, products: workload.handWritten, into: &ledger)
                }
                let end = MonotonicClock.nanoseconds()
                guard completed == count else {
                    throw BenchmarkError("the \(contender) dispatch completed \(completed) of \(count) transactions")
                }
                times[contender] = Double(end - start) / Double(count)
            }
            // Same effects applied in the same order: the same balances, ownerships, unlocks and counts.
            guard dispatcher.ledger == ledger, bareLedger == ledger else {
                throw BenchmarkError("""
                    the dispatches' ledgers disagree, so comparing them is not fair:
                      plans:  \(dispatcher.entitlements()) \(dispatcher.ledger)
                      bare:   \(bareLedger.entitlements(policy: workload.policy)) \(bareLedger)
                      switch: \(ledger.entitlements(policy: workload.policy)) \(ledger)
                    """)
            }
            let plannedTime = times[.planned] ?? 0
            let bareTime = times[.bare] ?? 0
            let handTime = times[.handWritten] ?? 0
            let label = round < 0 ? "warm-up" : "round \(round + 1)/\(options.repetitions)"
            StandardError.print("""
                  in memory, \(label): plans \(NumberFormatting.fixed(plannedTime, decimals: 1)) ns, bare plan loop \
                \(NumberFormatting.fixed(bareTime, decimals: 1)) ns, switch \(NumberFormatting.fixed(handTime, decimals: 1)) ns \
                a transaction: \(NumberFormatting.fixed(plannedTime / handTime, decimals: 2))x
                """)
            guard round >= 0 else { continue }
            figures.planned.append(plannedTime)
            figures.bare.append(bareTime)
            figures.handWritten.append(handTime)
            figures.ratios.append(plannedTime / handTime)
            figures.bareRatios.append(bareTime / handTime)
            figures.ledger = ledger
        }
        return figures
    }

    /// Runs every durable contender once per round (plus a warm-up on the smaller set), in transactions
    /// a second, and the queue's ratios to the SQLite baselines of the same round.
    private func measureDurable(_ workload: DispatchWorkload) async throws
        -> (rates: [DurableContender: [Double]], ratios: [DurableContender: [Double]]) {
        let root = options.directory ?? FileManager.default.temporaryDirectory.path
        let folder = "\(root)/storekeeper-dispatch-benchmark-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw BenchmarkError("cannot create \(folder): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        StandardError.print("durable: journals in \(folder)")
        let now = Date()
        let batched = workload.purchases(options.durable, idBase: 3_000_000_000_000_000, date: now)
        let unbatched = workload.purchases(options.unbatched, idBase: 4_000_000_000_000_000, date: now)
        func expected(_ transactions: [DispatchTransaction]) -> Entitlements {
            var ledger = EffectLedger()
            _ = HandWrittenDispatch.run(transactions, products: workload.handWritten, into: &ledger)
            return ledger.entitlements(policy: workload.policy)
        }
        let expectedBatched = expected(batched)
        let expectedUnbatched = expected(unbatched)

        for contender in [DurableContender.queueAppCrash, .sqliteBatchedNormal] {
            let rate = try await contender.run(policy: workload.policy, transactions: unbatched, expected: expectedUnbatched, folder: folder)
            StandardError.print("  durable, warm-up: \(contender.tag) \(NumberFormatting.grouped(Int(rate)))/s")
        }
        var rates: [DurableContender: [Double]] = [:]
        var ratios: [DurableContender: [Double]] = [:]
        for round in 0..<options.repetitions {
            var line: [String] = []
            var now: [DurableContender: Double] = [:]
            for contender in RotatingOrder.order(of: DurableContender.allCases, inRound: round) {
                let transactions = contender.isUnbatched ? unbatched : batched
                let expected = contender.isUnbatched ? expectedUnbatched : expectedBatched
                let rate = try await contender.run(policy: workload.policy, transactions: transactions, expected: expected, folder: folder)
                now[contender] = rate
                rates[contender, default: []].append(rate)
                line.append("\(contender.tag) \(NumberFormatting.grouped(Int(rate)))")
            }
            for (queue, floor) in DispatchResult.durablePairs {
                if let rate = now[queue], let limit = now[floor] { ratios[queue, default: []].append(rate / limit) }
            }
            StandardError.print("  durable, round \(round + 1)/\(options.repetitions): " + line.joined(separator: ", ") + " a second")
        }
        return (rates, ratios)
    }
}
