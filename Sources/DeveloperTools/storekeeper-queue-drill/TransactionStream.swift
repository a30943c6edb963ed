import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The store's updates for one drill, made from a seed over a catalog's
/// products: the same seed and count give the same updates in every launch,
/// so the reference run and each relaunch of the crashed run see one history.
///
/// Every product is bought at least once (in the first transactions, in an
/// order the seed picks), consumables in quantities from 1 to their
/// `max-quantity`. Each transaction goes `purchasing` first, then one of:
/// `purchased`; `deferred` then `purchased` (Ask to Buy approved);
/// `failed` with a store error (`payment-cancelled` most often), sometimes
/// after `deferred`; or `deferred` for good (never answered). Some updates
/// come twice, some `purchasing` arrives after its `purchased`, and
/// transactions overlap, as a store's updates do.
struct TransactionStream: Sendable {
    /// How a transaction ended, as the stream has it.
    enum Outcome: String, Sendable, Codable {
        /// Paid: its plan delivers, then finishes.
        case purchased
        /// Did not go through: finished without delivery.
        case failed
        /// Waiting for a parent's approval, for good: never finished.
        case deferred
    }

    /// One transaction of the stream and how it ended.
    struct Transaction: Sendable, Codable, Equatable {
        /// The store's id.
        var id: String
        /// The product.
        var product: String
        /// How many were bought.
        var quantity: Int
        /// How it ended.
        var outcome: Outcome
        /// The store's error, for a failed one.
        var error: String?

        /// Whether the store holds it unfinished until the app finishes it.
        var isTerminal: Bool { outcome != .deferred }
    }

    /// Every update, in the order the store holds them.
    let updates: [StoreTransaction]
    /// Every transaction, in the order they began.
    let transactions: [Transaction]

    /// When the first transaction was bought; each later one a minute after the one before.
    /// Well before the drill's clock (`RunCommand.now`), so that subscriptions are in force at the end.
    static let firstPurchase = Date(timeIntervalSince1970: 1_799_500_000)

    /// The errors a failed transaction may carry; a cancelled payment is the most common.
    private static let errors: [StoreErrorCode] = [
        .paymentCancelled, .paymentCancelled, .paymentCancelled, .unknown, .clientInvalid, .paymentInvalid,
        .paymentNotAllowed, .productNotAvailable, .networkError, .cloudServiceNetworkConnectionFailed,
    ]

    /// The stream of `count` transactions over `policy`'s products, from `seed`.
    init(policy: CompiledPolicy, seed: UInt64, count: Int) {
        var random = SplitMix64(seed: seed)
        let products = policy.products
        // Every product once, in an order the seed picks, then at random.
        var coverage = Array(products.indices)
        for index in coverage.indices.reversed() where index > 0 {
            coverage.swapAt(index, random.next(below: index + 1))
        }
        var perTransaction: [[StoreTransaction]] = []
        var transactions: [Transaction] = []
        for number in 0..<count {
            let product = products[number < coverage.count ? coverage[number] : random.next(below: products.count)]
            // The first pass buys each product for sure, so that every kind of plan runs.
            let covering = number < coverage.count
            let id = String(format: "T%05d", number + 1)
            let quantity = product.type == .consumable ? random.next(in: 1...max(1, product.maxQuantity)) : 1
            let info = TransactionInfo(id: id, productID: product.id, state: .purchasing, quantity: quantity,
                                       applicationUsername: random.chance(0.5) ? "player-\(random.next(below: 3))" : nil,
                                       receipt: Array("drill-receipt-\(id)".utf8))
            let purchaseDate = Self.firstPurchase.addingTimeInterval(Double(number) * 60)
            func update(_ state: TransactionState, _ error: StoreErrorCode? = nil) -> StoreTransaction {
                var changed = info
                changed.state = state
                changed.error = state == .failed ? error : nil
                return StoreTransaction(changed, purchaseDate: purchaseDate)
            }
            var sequence = [update(.purchasing)]
            let roll = covering ? 0 : random.next(below: 100)
            let outcome: Outcome
            var error: StoreErrorCode?
            switch roll {
            case 0..<55:
                outcome = .purchased
                sequence.append(update(.purchased))
            case 55..<67:
                outcome = .purchased
                sequence.append(update(.deferred))
                sequence.append(update(.purchased))
            case 67..<92:
                outcome = .failed
                error = Self.errors[random.next(below: Self.errors.count)]
                if random.chance(0.3) { sequence.append(update(.deferred)) }
                sequence.append(update(.failed, error))
            default:
                outcome = .deferred
                sequence.append(update(.deferred))
            }
            // The store's noise: a final update twice, a `purchasing` after the end, a `purchasing` twice.
            if let last = sequence.last, outcome != .deferred, random.chance(0.2) { sequence.append(last) }
            if outcome == .purchased, random.chance(0.15) { sequence.append(update(.purchasing)) }
            if random.chance(0.05) { sequence.insert(update(.purchasing), at: 1) }
            perTransaction.append(sequence)
            transactions.append(Transaction(id: id, product: product.id, quantity: quantity, outcome: outcome, error: error?.rawValue))
        }
        updates = Self.interleave(perTransaction, random: &random)
        self.transactions = transactions
    }

    /// The transactions' updates merged into one sequence: up to four
    /// transactions are under way at once, and the next update comes from
    /// any of them, so each keeps its own order while they overlap.
    private static func interleave(_ sequences: [[StoreTransaction]], random: inout SplitMix64) -> [StoreTransaction] {
        var merged: [StoreTransaction] = []
        merged.reserveCapacity(sequences.reduce(0) { $0 + $1.count })
        var waiting = sequences[...]
        var underWay: [ArraySlice<StoreTransaction>] = []
        while !waiting.isEmpty || !underWay.isEmpty {
            while underWay.count < 4, let next = waiting.popFirst() { underWay.append(next[...]) }
            let pick = random.next(below: underWay.count)
            if let update = underWay[pick].popFirst() { merged.append(update) }
            if underWay[pick].isEmpty { underWay.remove(at: pick) }
        }
        return merged
    }

    /// The ids of the transactions the store holds until they are finished.
    var terminalIDs: Set<String> {
        Set(transactions.filter(\.isTerminal).map(\.id))
    }
}
