public import StorekeeperCore

/// The column of a situation in a compiled policy's dispatch table: each
/// state, then `failed` once per store error. A switch, not a search, so
/// that dispatch costs no string comparison.
@usableFromInline package enum SituationSlot {
    /// How many situations a product has plans for: four states, and
    /// `failed` for each of the eleven store errors. A constant, so that
    /// dispatch reads no lazily initialised global (a test checks it
    /// against `PlanSituation.all`).
    @inlinable package static var count: Int { 15 }

    /// The slot of a state (and, for `failed`, the store's error; none counts as `unknown`).
    @inlinable
    package static func slot(_ state: TransactionState, error: StoreErrorCode?) -> Int {
        switch state {
        case .purchasing: 0
        case .deferred: 1
        case .purchased: 2
        case .restored: 3
        case .failed: 4 + errorOrdinal(error ?? .unknown)
        }
    }

    /// The slot of a situation.
    package static func slot(_ situation: PlanSituation) -> Int { slot(situation.state, error: situation.error) }

    /// The situation of a slot, in `PlanSituation.all`'s order.
    package static func situation(_ slot: Int) -> PlanSituation { PlanSituation.all[slot] }

    @inlinable
    static func errorOrdinal(_ error: StoreErrorCode) -> Int {
        switch error {
        case .unknown: 0
        case .clientInvalid: 1
        case .paymentCancelled: 2
        case .paymentInvalid: 3
        case .paymentNotAllowed: 4
        case .productNotAvailable: 5
        case .networkError: 6
        case .cloudServicePermissionDenied: 7
        case .cloudServiceNetworkConnectionFailed: 8
        case .cloudServiceRevoked: 9
        case .verificationFailed: 10
        }
    }
}
