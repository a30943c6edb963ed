import StorekeeperCore
import StorekeeperRuntime

/// Which transactions carry the app receipt's bytes.
///
/// StoreKit 1 has one app receipt, which lists every purchase, so it grows
/// with each: a copy in every transaction made the queue's journal, which
/// keeps each transaction's `TransactionInfo.receipt`, grow with the square
/// of the number of purchases (200 renewals of a subscription: a 3.8 MB
/// journal, 80 KB without the copies; StoreKit1ReceiptCopiesTests). A
/// transaction now carries the receipt only when a step of its plan may read it.
extension StoreKit1Backend {
    /// Whether a purchased or restored transaction of the product carries the
    /// receipt: when its plan has a step that may read it. `verify-receipt`
    /// sends it to the server; `persist` keeps a copy for `user-defaults` and
    /// `icloud` with `record: receipt`, and a `server` or app-registered
    /// strategy may send it; a step the app registered may read it. The
    /// built-in `notify`, `download`, `unlock`, `grant`, `finish` and
    /// `present-error`, and `persist` for the built-in `receipt` (which keeps
    /// nothing) and `app-state` (which keeps the transaction's id and
    /// quantity) never do. A product the catalog does not declare carries it:
    /// its plan halts, and the version of the app that sells it plans it anew.
    func carriesReceipt(productID: String, state: TransactionState) -> Bool {
        guard let handle = policy.product(id: productID) else { return true }
        let persistence = policy.plugins.persistence(for: policy.product(handle).persistence)
        let plan = policy.plans[policy.planIndex(for: handle, state: state)]
        return plan.steps.contains { !Self.neverReadsReceipt($0.plugin, persistence: persistence) }
    }

    /// Whether a step's plugin is a built-in one that never reads `TransactionInfo.receipt`.
    static func neverReadsReceipt(_ plugin: any StepPlugin, persistence: any PersistenceStrategyPlugin) -> Bool {
        switch plugin {
        case is NotifyStep, is DownloadStep, is UnlockStep, is GrantStep, is FinishStep, is PresentErrorStep: true
        case is PersistStep: persistence is ReceiptPersistence || persistence is AppStatePersistence
        default: false
        }
    }
}
