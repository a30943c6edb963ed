import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperPolicy
import StorekeeperQueue
import StorekeeperRuntime

/// A product as the hand-written dispatch knows it: what an app that wrote its own `switch` instead of
/// a catalog would hard-code per product.
struct HandWrittenProduct: Sendable {
    /// The product identifier.
    let id: String
    /// Consumables grant and are logged; everything else is kept (owned) and unlocks.
    let isConsumable: Bool
    /// Auto-renewable and non-renewing subscriptions, for the entitlements.
    let isSubscription: Bool
    /// Balances a unit adds to.
    let grants: [GrantPolicy]
    /// Features a purchase unlocks.
    let unlocks: [String]
    /// The most one payment may buy.
    let maxQuantity: Int

    /// The hand-written view of a product of the policy.
    init(_ product: ProductPolicy) {
        id = product.id
        isConsumable = product.type == .consumable
        isSubscription = product.type == .autoRenewableSubscription || product.type == .nonRenewingSubscription
        grants = product.grants
        unlocks = product.unlocks
        maxQuantity = product.maxQuantity
    }

    /// The steps of each situation that ``HandWrittenDispatch/run(_:products:into:)`` does by hand, for
    /// this product: the compiled plan must name exactly these, or the comparison is not fair.
    func expectedSteps(state: TransactionState, error: StoreErrorCode?) -> [String] {
        switch state {
        case .purchasing, .deferred:
            return ["notify"]
        case .purchased:
            return isConsumable ? ["persist", "grant", "audit-log", "notify", "finish"] : ["persist", "unlock", "notify", "finish"]
        case .restored:
            return ["finish"]
        case .failed:
            return error == .paymentCancelled ? ["finish"] : ["present-error", "finish"]
        }
    }
}

/// What the hand-written dispatch keeps: the same kind of in-memory ledger as the queue's (balances,
/// unlocked features by the products that unlocked them, owned products with their transaction), plus
/// counts of what it would tell the interface and the store.
struct HandWrittenLedger: Sendable {
    /// A product owned: by which transaction, since when.
    struct Ownership: Sendable {
        var transactionID: String
        var purchaseDate: Date
    }

    var owned: [String: Ownership] = [:]
    var unlocked: [String: Set<String>] = [:]
    var balances: [String: Int] = [:]
    /// Audit-log lines written (the custom effect), and their bytes.
    var auditLines = 0
    var auditBytes = 0
    /// `app-state` records, interface notifications, errors presented, transactions finished.
    var records = 0
    var notifications = 0
    var errorsPresented = 0
    var finished = 0
    /// Purchases refused for a quantity out of range (none in the benchmark).
    var refused = 0

    /// Applies an effect a step returned, as the queue's ledger does, counting what goes elsewhere.
    @inline(__always)
    mutating func apply(_ effect: Effect, transaction: StoreTransaction, product: String) {
        switch effect {
        case .grant(let balance, let amount):
            balances[balance, default: 0] &+= amount
        case .own(let id):
            if owned[id] == nil {
                owned[id] = .init(transactionID: transaction.info.id, purchaseDate: transaction.purchaseDate)
            }
        case .unlock(let feature):
            unlocked[feature, default: []].insert(product)
        case .custom(_, let detail):
            auditLines += 1
            auditBytes &+= detail.utf8.count
        case .record:
            records += 1
        case .notify:
            notifications += 1
        case .presentError:
            errorsPresented += 1
        case .finish:
            finished += 1
        case .content, .receiptVerified:
            break
        }
    }

    /// Every count, to compare two ledgers' work beyond their entitlements.
    var counts: [Int] { [auditLines, auditBytes, records, notifications, errorsPresented, finished, refused] }

    /// The entitlements, by the queue's rules: every owned product (nothing here expires), subscriptions
    /// among them, and each feature unlocked while a product that unlocked it is owned or a consumable.
    func entitlements(products: [HandWrittenProduct]) -> Entitlements {
        var byID: [String: HandWrittenProduct] = [:]
        for product in products { byID[product.id] = product }
        let ownedNow = Set(owned.keys)
        let subscriptions = owned.keys.filter { byID[$0]?.isSubscription ?? false }
            .map { ActiveSubscription(productID: $0, expirationDate: nil) }
        var features = Set<String>()
        for (feature, unlockedBy) in unlocked
        where unlockedBy.contains(where: { ownedNow.contains($0) || (byID[$0]?.isConsumable ?? false) }) {
            features.insert(feature)
        }
        return Entitlements(features: features, balances: balances, activeSubscriptions: subscriptions, ownedProducts: ownedNow)
    }
}

/// The baseline of `storekeeper-benchmark dispatch`: Rocket Racer's dispatch written by hand, a `switch`
/// on the transaction's state and the product's kind that applies the same effects as the compiled
/// plans' steps (grants of amount × quantity, the audit-log line, ownership, unlocked features), with no
/// plan, no plugin, no effect array and no `async` call.
enum HandWrittenDispatch {
    /// Dispatches every transaction; returns how many ran to their end.
    @inline(never)
    static func run(_ transactions: [DispatchTransaction], products: [HandWrittenProduct], into ledger: inout HandWrittenLedger) -> Int {
        var completed = 0
        next: for item in transactions {
            let info = item.transaction.info
            let product = products[item.product.index]
            switch info.state {
            case .purchasing, .deferred:
                ledger.notifications += 1
            case .purchased:
                if product.isConsumable {
                    ledger.records += 1
                    let quantity = info.quantity
                    guard quantity >= 1, quantity <= product.maxQuantity else {
                        ledger.refused += 1
                        continue next
                    }
                    for grant in product.grants {
                        let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: quantity)
                        guard !overflow else {
                            ledger.refused += 1
                            continue next
                        }
                        ledger.balances[grant.balance, default: 0] &+= amount
                    }
                    let line = AuditLogStep.detail(product: product.id, quantity: quantity)
                    ledger.auditLines += 1
                    ledger.auditBytes &+= line.utf8.count
                } else {
                    if ledger.owned[product.id] == nil {
                        ledger.owned[product.id] = .init(transactionID: info.id, purchaseDate: item.transaction.purchaseDate)
                    }
                    for feature in product.unlocks {
                        ledger.unlocked[feature, default: []].insert(product.id)
                    }
                }
                ledger.notifications += 1
                ledger.finished += 1
            case .restored:
                ledger.finished += 1
            case .failed:
                if info.error != .paymentCancelled { ledger.errorsPresented += 1 }
                ledger.finished += 1
            }
            completed += 1
        }
        return completed
    }
}
