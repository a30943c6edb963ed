import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRules
import StorekeeperRuntime
import StorekeeperYAML

/// What `storekeeper-benchmark lookups` dispatches: the generated catalog compiled in this process, and
/// transactions drawn with a fixed seed, the same on every run.
struct LookupWorkload {
    /// The compiled policy of the generated catalog.
    let policy: CompiledPolicy
    /// The transactions, by handle.
    let transactions: [LookupTransaction]
    /// The product id of each transaction, at the same index. Each product's id is a copy of its own,
    /// not the policy's string, as an id that came from the store would be, so that finding it compares
    /// bytes rather than seeing the very same storage; the transactions of one product share the copy.
    let productIDs: [String]
    /// The position in `policy.plans` of each transaction's plan, at the same index, worked out in
    /// advance: what the baseline reads.
    let planNumbers: [Int32]
    /// The size of the generated catalog, in bytes.
    let catalogBytes: Int
    /// Wall time, one run each: generating the catalog's text, loading it (parsing and decoding, from
    /// memory), compiling it, and encoding the policy as indented JSON (not written anywhere).
    let setup: Setup

    /// How long the one-off steps before the lookups took, in milliseconds.
    struct Setup: Sendable {
        var generate: Double
        var load: Double
        /// The policy rules over the loaded catalog (median of 7).
        var rules: Double
        /// `PolicyCompiler().compile` (median of 7).
        var compile: Double
        var encode: Double
        /// The size of the policy's indented JSON, in UTF-8 bytes.
        var policyBytes: Int
    }

    /// The seed of the transactions' choices.
    static let seed: UInt64 = 0x4C4F_4F4B_5550_5321  // "LOOKUPS!"

    /// Generates a catalog of `products` products, loads and compiles it here, and draws `transactions`
    /// transactions: each a product chosen evenly, and a state from ``TransactionMix``.
    ///
    /// - Throws: ``BenchmarkError`` when the generated catalog does not load or compile clean.
    init(products: Int, transactions count: Int) throws {
        var clock = MonotonicClock.nanoseconds()
        func lap() -> Double {
            let now = MonotonicClock.nanoseconds()
            defer { clock = now }
            return Double(now - clock) / 1_000_000
        }

        var text = ""
        CatalogGenerator(productCount: products).write(to: &text)
        let bytes = Array(text.utf8)
        text = ""
        let generate = lap()

        let path = "catalog-\(products).yaml"
        var loader = CatalogLoader(reader: InMemorySourceReader(bytes: [path: bytes]))
        loader.limits.maxFileSize = max(loader.limits.maxFileSize, bytes.count)
        let loaded = loader.load(path)
        let load = lap()
        guard !loaded.hasErrors, let catalog = loaded.catalog else {
            let problems = loaded.diagnostics.prefix(5).map { "\($0.location): \($0.message)" }
            throw BenchmarkError("the generated catalog does not load clean:\n" + problems.joined(separator: "\n"))
        }
        // The policy rules (the rest of validation) and the compiler, alternately,
        // seven times each: their medians make the in-process ratio.
        var policy: CompiledPolicy?
        var rulesTimes: [Double] = []
        var compileTimes: [Double] = []
        for _ in 0..<7 {
            _ = lap()
            let found = RuleRegistry.check(catalog)
            rulesTimes.append(lap())
            guard found.allSatisfy({ $0.severity != .error }) else {
                throw BenchmarkError("the generated catalog breaks a policy rule:\n\(found.prefix(5))")
            }
            do {
                policy = try PolicyCompiler().compile(catalog)
            } catch {
                throw BenchmarkError("the generated catalog does not compile:\n\(error)")
            }
            compileTimes.append(lap())
        }
        guard let policy else { throw BenchmarkError("the generated catalog did not compile") }
        let rules = Statistics.median(rulesTimes)
        let compile = Statistics.median(compileTimes)
        let json = PolicyEncoder(indentation: 2).encode(policy)
        let encode = lap()
        setup = Setup(generate: generate, load: load, rules: rules, compile: compile, encode: encode, policyBytes: json.utf8.count)
        catalogBytes = bytes.count

        let handles = policy.products.map { policy.product(id: $0.id)! }
        let ids = policy.products.map { String(decoding: Array($0.id.utf8), as: UTF8.self) }
        var random = SeededGenerator(seed: Self.seed)
        var transactions: [LookupTransaction] = []
        var productIDs: [String] = []
        var planNumbers: [Int32] = []
        transactions.reserveCapacity(count)
        productIDs.reserveCapacity(count)
        planNumbers.reserveCapacity(count)
        for _ in 0..<count {
            let product = random.next(below: handles.count)
            let (state, error) = TransactionMix.draw(using: &random)
            let transaction = LookupTransaction(product: handles[product], state: state, error: error)
            transactions.append(transaction)
            productIDs.append(ids[product])
            planNumbers.append(Int32(policy.planIndex(for: transaction.product, state: state, error: error)))
        }
        self.policy = policy
        self.transactions = transactions
        self.productIDs = productIDs
        self.planNumbers = planNumbers
    }

    /// The sum of the plan numbers, which the baseline and both plan-number lookups must each arrive at.
    var planNumberSum: Int {
        planNumbers.reduce(0) { $0 &+ Int($1) }
    }

    /// The sum of the plans' step counts, which the plan lookup must arrive at.
    var stepCountSum: Int {
        let counts = policy.plans.map(\.steps.count)
        return planNumbers.reduce(0) { $0 &+ counts[Int($1)] }
    }
}
