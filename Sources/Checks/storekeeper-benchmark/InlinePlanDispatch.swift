import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// For information: what dispatch through compiled plans could cost if the built-in steps ran inline.
/// Each plan is translated once into codes: a built-in step whose plugin is the built-in one (not one an
/// app registered in its place) becomes a code that applies its effects straight to the ledger, with
/// no `async` call and no array of effects; any other step (Rocket Racer's `audit-log`, or a `persist`
/// whose strategy keeps records elsewhere) stays a plugin call with its `StepContext`.
///
/// Not a contender: an experiment in the benchmark that says how much of the gap an executor with such
/// a fast path would close (see docs/performance.md).
enum InlinePlanDispatch {
    /// A step, translated.
    enum Code: Sendable {
        case notify
        case presentError
        case finish
        case persist(any StepPlugin)
        case grant
        case unlock
        case plugin(any StepPlugin)
    }

    /// Each plan's codes, by plan number.
    static func translate(_ policy: CompiledPolicy) -> [[Code]] {
        policy.plans.map { plan in
            plan.steps.map { step -> Code in
                switch step.plugin {
                case is NotifyStep: .notify
                case is PresentErrorStep: .presentError
                case is FinishStep: .finish
                case is PersistStep: .persist(step.plugin)
                case is GrantStep: .grant
                case is UnlockStep: .unlock
                default: .plugin(step.plugin)
                }
            }
        }
    }

    /// Dispatches every transaction; returns how many ran to their end.
    @inline(never)
    static func run(_ transactions: [DispatchTransaction], policy: CompiledPolicy, codes: [[Code]],
                    into ledger: inout HandWrittenLedger) async -> Int {
        var completed = 0
        next: for item in transactions {
            let info = item.transaction.info
            let product = policy.product(item.product)
            for code in codes[policy.planIndex(for: item.product, state: info.state, error: info.error)] {
                let plugin: any StepPlugin
                switch code {
                case .notify:
                    ledger.notifications += 1
                    continue
                case .presentError:
                    ledger.errorsPresented += 1
                    continue
                case .finish:
                    ledger.finished += 1
                    continue
                case .grant:
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
                    continue
                case .unlock:
                    if product.type != .consumable, ledger.owned[product.id] == nil {
                        ledger.owned[product.id] = .init(transactionID: info.id, purchaseDate: item.transaction.purchaseDate)
                    }
                    for feature in product.unlocks {
                        ledger.unlocked[feature, default: []].insert(product.id)
                    }
                    continue
                case .persist(let persist):
                    switch product.persistence {
                    case .appState:
                        ledger.records += 1
                        continue
                    case .receipt:
                        continue
                    default:
                        plugin = persist
                    }
                case .plugin(let other):
                    plugin = other
                }
                let effects: [Effect]
                do {
                    effects = try await plugin.run(StepContext(transaction: info, product: product, plugins: policy.plugins))
                } catch {
                    ledger.refused += 1
                    continue next
                }
                for effect in effects {
                    ledger.apply(effect, transaction: item.transaction, product: product.id)
                }
            }
            completed += 1
        }
        return completed
    }
}
