
/// What a plan is for, besides its product: the transaction's state and, for
/// a failed transaction, the store's error (plans may differ by error: a
/// cancelled payment shows no error).
public struct PlanSituation: Sendable, Hashable, CustomStringConvertible {
    /// The transaction state.
    public var state: TransactionState
    /// The store's error; set only for `failed`.
    public var error: StoreErrorCode?

    /// A situation; `error` is kept only for `failed`.
    package init(_ state: TransactionState, error: StoreErrorCode? = nil) {
        self.state = state
        self.error = state == .failed ? error : nil
    }

    /// Every situation a product's transactions can be in: each state, and
    /// `failed` once per store error.
    public static let all: [PlanSituation] =
        [PlanSituation(.purchasing), PlanSituation(.deferred), PlanSituation(.purchased), PlanSituation(.restored)]
        + StoreErrorCode.allCases.map { PlanSituation(.failed, error: $0) }

    /// `purchased`, or `failed (payment-cancelled)`.
    public var description: String {
        if let error { return "\(state.rawValue) (\(error.rawValue))" }
        return state.rawValue
    }
}
