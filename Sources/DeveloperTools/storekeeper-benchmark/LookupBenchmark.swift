import StorekeeperRuntime
/// `storekeeper-benchmark lookups`: times, in this process, the dispatch of every transaction of a
/// ``LookupWorkload`` to its plan, four ways (``LookupVariant``), against reading plan numbers worked
/// out in advance.
///
/// One warm-up round (each loop once, its sum checked), then ``LookupOptions/repetitions`` measured
/// rounds, the loops in an order that rotates from round to round (``LookupVariant/order(inRound:)``).
/// Each loop's time is the wall time of one walk over all the transactions, on the monotonic clock.
struct LookupBenchmark {
    /// The settings of this run.
    let options: LookupOptions

    /// Builds the workload, then measures, reporting progress on standard error.
    ///
    /// - Throws: ``BenchmarkError`` when the catalog does not compile, or when a loop's sum is not the
    ///   one worked out in advance (a loop that finds wrong plans has nothing worth timing).
    func run() throws -> LookupResult {
        StandardError.print("""
            generating, loading and compiling \(NumberFormatting.grouped(options.products)) products, \
            then drawing \(NumberFormatting.grouped(options.transactions)) transactions
            """)
        let workload = try LookupWorkload(products: options.products, transactions: options.transactions)
        StandardError.print("""
              \(NumberFormatting.grouped(workload.policy.plans.count)) plans; generate \
            \(NumberFormatting.fixed(workload.setup.generate, decimals: 1)) ms, load \
            \(NumberFormatting.fixed(workload.setup.load, decimals: 1)) ms, compile \
            \(NumberFormatting.fixed(workload.setup.compile, decimals: 1)) ms, encode \
            \(NumberFormatting.fixed(workload.setup.encode, decimals: 1)) ms
            """)

        for variant in LookupVariant.allCases {
            let sum = variant.run(on: workload)
            let expected = variant.expectedSum(of: workload)
            guard sum == expected else {
                throw BenchmarkError("the \(variant) loop summed \(sum), not \(expected): it found the wrong plans")
            }
        }

        var nanoseconds: [LookupVariant: [Double]] = [:]
        for round in 0..<options.repetitions {
            let order = LookupVariant.order(inRound: round)
            var line: [String] = []
            for variant in order {
                let start = MonotonicClock.nanoseconds()
                let sum = variant.run(on: workload)
                let end = MonotonicClock.nanoseconds()
                Opaque.consume(sum)
                guard sum == variant.expectedSum(of: workload) else {
                    throw BenchmarkError("the \(variant) loop summed \(sum) in round \(round + 1): it found the wrong plans")
                }
                let perLookup = Double(end - start) / Double(options.transactions)
                nanoseconds[variant, default: []].append(perLookup)
                line.append("\(variant) \(NumberFormatting.fixed(perLookup, decimals: 2))")
            }
            StandardError.print("  round \(round + 1)/\(options.repetitions): " + line.joined(separator: ", ") + " ns")
        }
        return LookupResult(
            products: options.products, transactions: options.transactions, catalogBytes: workload.catalogBytes,
            plans: workload.policy.plans.count, setup: workload.setup, nanoseconds: nanoseconds)
    }
}
