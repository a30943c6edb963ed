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
    /// Whether a purchase keeps a record of its transaction (`app-state` persistence); the benchmark's
    /// other products keep theirs in the receipt, which records nothing.
    let recordsTransaction: Bool

    /// The hand-written view of a product of the policy.
    init(_ product: ProductPolicy) {
        id = product.id
        isConsumable = product.type == .consumable
        isSubscription = product.type == .autoRenewableSubscription || product.type == .nonRenewingSubscription
        grants = product.grants
        unlocks = product.unlocks
        maxQuantity = product.maxQuantity
        recordsTransaction = product.persistence == .appState
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
/// on the transaction's state and the product's kind that appends the same effects, in the same order,
/// as the compiled plans' steps do (the `app-state` record, grants of amount × quantity, the audit-log
/// line, ownership, unlocked features, the notification, the error shown, the finish), then applies
/// them to the ledger, with no plan, no plugin and no `async` call.
///
/// Appending the same `Effect` values is what makes the comparison fair: a switch that only counted
/// what the plans build would measure the effects' cost against nothing. ``effects(of:product:into:)``
/// is checked against the plans' effects, transaction by transaction, before anything is timed.
enum HandWrittenDispatch {
    /// Dispatches every transaction; returns how many ran to their end.
    @inline(never)
    static func run(_ transactions: [DispatchTransaction], products: [HandWrittenProduct], into ledger: inout HandWrittenLedger) -> Int {
        var completed = 0
        var effects: [Effect] = []
        for item in transactions {
            let product = products[item.product.index]
            effects.removeAll(keepingCapacity: true)
            let ranToEnd = Self.effects(of: item.transaction.info, product: product, into: &effects)
            for effect in effects {
                ledger.apply(effect, transaction: item.transaction, product: product.id)
            }
            if ranToEnd { completed += 1 } else { ledger.refused += 1 }
        }
        return completed
    }

    /// Appends a transaction's effects, as the steps of its plan would: returns false when a purchase's
    /// quantity is refused (out of 1...max-quantity, or a grant that overflows), where the plan stops
    /// after the effects of the steps before `grant`.
    @inline(__always)
    static func effects(of info: TransactionInfo, product: HandWrittenProduct, into effects: inout [Effect]) -> Bool {
        switch info.state {
        case .purchasing, .deferred:
            effects.append(.notify(info.state))
        case .purchased:
            let quantity = info.quantity
            if product.recordsTransaction {
                effects.append(.record(PersistenceRecord(strategy: .appState, key: product.id,
                                                         value: .transaction(id: info.id, quantity: quantity))))
            }
            if product.isConsumable {
                guard quantity >= 1, quantity <= product.maxQuantity else { return false }
                for grant in product.grants {
                    let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: quantity)
                    guard !overflow else { return false }
                    effects.append(.grant(balance: grant.balance, amount: amount))
                }
                effects.append(.custom(step: AuditLogStep.stepName, detail: AuditLogStep.detail(product: product.id, quantity: quantity)))
            } else {
                effects.append(.own(product: product.id))
                for feature in product.unlocks {
                    effects.append(.unlock(feature: feature))
                }
            }
            effects.append(.notify(.purchased))
            effects.append(.finish)
        case .restored:
            effects.append(.finish)
        case .failed:
            if info.error != .paymentCancelled { effects.append(.presentError(info.error ?? .unknown)) }
            effects.append(.finish)
        }
        return true
    }
}
