import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// What `storekeeper-benchmark dispatch` dispatches: Rocket Racer's catalog compiled with its `audit-log`
/// step, the products that need nothing from outside the device, and transactions drawn with a fixed seed.
struct DispatchWorkload {
    /// The seed of the transactions: the same ones every run.
    static let seed: UInt64 = 0x5707_e4ee_9e75_0005

    /// The compiled catalog.
    let policy: CompiledPolicy
    /// The products dispatched to: those with built-in delivery, `app-state` or `receipt` persistence
    /// and no content to download.
    let products: [ProductHandle]
    /// The products left out, and why.
    let excluded: [(id: String, reason: String)]
    /// Every product of the policy as the hand-written dispatch sees it, by handle index.
    let handWritten: [HandWrittenProduct]
    /// How long loading and compiling the catalog took, in milliseconds.
    let loadMilliseconds: Double

    /// Loads and compiles the catalog, and checks that every plan of the products used is the one the
    /// hand-written dispatch does by hand.
    ///
    /// - Throws: ``BenchmarkError`` when the catalog does not load, or a plan is not what the
    ///   hand-written dispatch assumes (the comparison would not be fair).
    init(catalogPath: String) throws {
        var plugins = PluginRegistry()
        try plugins.register(AuditLogStep())
        let start = MonotonicClock.nanoseconds()
        do {
            policy = try PolicyLoader(plugins: plugins).load(contentsOf: catalogPath)
        } catch {
            throw BenchmarkError("\(catalogPath) does not load: \(error)")
        }
        loadMilliseconds = Double(MonotonicClock.nanoseconds() - start) / 1e6
        handWritten = policy.products.map(HandWrittenProduct.init)
        var products: [ProductHandle] = []
        var excluded: [(id: String, reason: String)] = []
        for product in policy.products {
            guard let handle = policy.product(id: product.id) else { throw BenchmarkError("\(product.id) has no handle") }
            if product.delivery != .builtIn {
                excluded.append((product.id, "delivered by a server"))
            } else if product.hasDownloadableContent {
                excluded.append((product.id, "\(product.content?.source.rawValue ?? "") content to download"))
            } else if product.persistence != .appState && product.persistence != .receipt {
                excluded.append((product.id, "persistence \(product.persistence.rawValue) needs a record store"))
            } else {
                products.append(handle)
            }
        }
        guard !products.isEmpty else { throw BenchmarkError("\(catalogPath) has no product that needs nothing from outside the device") }
        self.products = products
        self.excluded = excluded
        let situations: [(TransactionState, StoreErrorCode?)] =
            [(.purchasing, nil), (.deferred, nil), (.purchased, nil), (.restored, nil)]
            + StoreErrorCode.allCases.map { (.failed, $0) }
        for handle in products {
            let product = handWritten[handle.index]
            for (state, error) in situations {
                let planned = policy.plan(for: handle, state: state, error: error).stepNames
                let expected = product.expectedSteps(state: state, error: error)
                guard planned == expected else {
                    throw BenchmarkError("""
                        \(product.id), \(state.rawValue)\(error.map { " (\($0.rawValue))" } ?? ""): the plan is \
                        \(planned.joined(separator: " → ")), the hand-written dispatch does \
                        \(expected.joined(separator: " → ")); it is written for Rocket Racer's catalog
                        """)
                }
            }
        }
    }

    /// Products in the order transactions use them, in words, for the report.
    var productSummary: String {
        let consumables = products.filter { handWritten[$0.index].isConsumable }.count
        let subscriptions = products.filter { handWritten[$0.index].isSubscription }.count
        return "\(products.count) products (\(consumables) consumables, \(products.count - consumables - subscriptions) "
            + "non-consumables, \(subscriptions) auto-renewable subscriptions)"
    }

    /// `count` transactions: a product chosen evenly among ``products``, a state drawn from
    /// ``TransactionMix``, a quantity of 1 for three consumable purchases in four and up to the product's
    /// `max-quantity` for the others, a 16-digit id as the App Store gives.
    func mixedTransactions(_ count: Int) -> [DispatchTransaction] {
        var random = SeededGenerator(seed: Self.seed)
        var transactions: [DispatchTransaction] = []
        transactions.reserveCapacity(count)
        let start = Date(timeIntervalSince1970: 1_763_800_000)
        for position in 0..<count {
            let handle = products[random.next(below: products.count)]
            let (state, error) = TransactionMix.draw(using: &random)
            transactions.append(transaction(position, handle, state: state, error: error, random: &random, date: start))
        }
        return transactions
    }

    /// `count` purchased transactions, a product chosen evenly among ``products``, bought `date`.
    func purchases(_ count: Int, idBase: Int, date: Date) -> [DispatchTransaction] {
        var random = SeededGenerator(seed: Self.seed ^ UInt64(idBase))
        return (0..<count).map { position in
            let handle = products[random.next(below: products.count)]
            return transaction(idBase + position, handle, state: .purchased, error: nil, random: &random, date: date)
        }
    }

    private func transaction(_ number: Int, _ handle: ProductHandle, state: TransactionState, error: StoreErrorCode?,
                             random: inout SeededGenerator, date: Date) -> DispatchTransaction {
        let product = handWritten[handle.index]
        var quantity = 1
        if product.isConsumable, product.maxQuantity > 1, random.next(below: 4) == 0 {
            quantity = 1 + random.next(below: product.maxQuantity)
        }
        let info = TransactionInfo(id: String(2_000_000_000_000_000 + number), productID: product.id, state: state, error: error,
                                   quantity: quantity)
        return DispatchTransaction(transaction: StoreTransaction(info, purchaseDate: date), product: handle)
    }
}
