import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperPolicy
import StorekeeperQueue
import StorekeeperRuntime

/// A product as the hand-written dispatch knows it: what an app that wrote its own `switch` instead of
/// a catalog would hard-code per product. A class, as such a table of constants would be: taking one
/// out of the table is a retain, not a copy of its strings and arrays.
final class HandWrittenProduct: Sendable {
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
    static func run(_ transactions: [DispatchTransaction], products: [HandWrittenProduct], into ledger: inout EffectLedger) -> Int {
        var completed = 0
        var effects = EffectBuffer()
        for item in transactions {
            effects.removeAll()
            if Self.effects(of: item.transaction, product: products[item.product.index], into: &effects) { completed += 1 }
            ledger.apply(effects, of: item.transaction)
        }
        return completed
    }

    /// Appends a transaction's effects, as the steps of its plan would: returns false when a purchase's
    /// quantity is refused (out of 1...max-quantity, or a grant that overflows), where the plan stops
    /// after the effects of the steps before `grant`.
    @inline(__always)
    static func effects(of transaction: StoreTransaction, product: HandWrittenProduct, into effects: inout EffectBuffer) -> Bool {
        // Scalars first: read after an append, the compiler copies the whole transaction to read them.
        let state = transaction.info.state
        let error = transaction.info.error
        let quantity = transaction.info.quantity
        switch state {
        case .purchasing, .deferred:
            effects.append(.notify(state))
        case .purchased:
            if product.recordsTransaction {
                let record = PersistenceRecord(strategy: .appState, key: product.id, value: .transaction(id: transaction.id, quantity: quantity))
                effects.append(.record(record))
            }
            if product.isConsumable {
                guard quantity >= 1, quantity <= product.maxQuantity else { return false }
                let grantsStart = effects.count
                for grant in product.grants {
                    guard case (let amount, false) = grant.amount.multipliedReportingOverflow(by: quantity) else {
                        // A failed step has no effect: not even the grants before the one that overflowed.
                        effects.discard(from: grantsStart)
                        return false
                    }
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
            if error != .paymentCancelled { effects.append(.presentError(error ?? .unknown)) }
            effects.append(.finish)
        }
        return true
    }
}
