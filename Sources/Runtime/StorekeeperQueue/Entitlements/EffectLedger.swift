package import Foundation
import StorekeeperCore
package import StorekeeperRuntime

/// Effects applied in memory: ownership, unlocked features and balances to
/// an `EntitlementLedger`, as the journal applies them to the queue's, and
/// counts of what goes elsewhere (custom effects, records, notifications,
/// errors shown, finishes). The in-memory dispatcher applies its plans'
/// effects here, and the dispatch benchmark's hand-written switch its own,
/// so that both pay the same for applying them.
package struct EffectLedger: Sendable, Hashable {
    private var ledger = EntitlementLedger()
    /// Custom effects applied.
    package private(set) var custom = 0
    /// Records (`app-state` and others) applied.
    package private(set) var records = 0
    /// Notifications told.
    package private(set) var notifications = 0
    /// Errors shown.
    package private(set) var errorsPresented = 0
    /// Transactions finished.
    package private(set) var finished = 0

    /// An empty ledger.
    package init() {}

    /// Applies a transaction's effects, in order.
    package mutating func apply(_ effects: EffectBuffer, of transaction: StoreTransaction) {
        for effect in effects {
            switch effect {
            case .own(let product):
                if ledger.owned[product] == nil {
                    ledger.own(product, .init(transactionID: transaction.id, purchaseDate: transaction.purchaseDate, expirationDate: nil))
                }
            case .unlock(let feature):
                ledger.unlock(feature, by: transaction.info.productID)
            case .grant(let balance, let amount):
                ledger.grant(balance, amount)
            case .record:
                records += 1
            case .custom:
                custom += 1
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
    }

    /// The entitlements, by the queue's rules, with nothing kept elsewhere.
    package func entitlements(policy: CompiledPolicy, now: Date = Date()) -> Entitlements {
        ledger.entitlements(policy: policy, elsewhere: [:], now: now)
    }

    /// The balances.
    package var balances: [String: Int] { ledger.balances }
}
