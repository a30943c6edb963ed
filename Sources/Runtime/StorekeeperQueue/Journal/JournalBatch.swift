import StorekeeperCore
import StorekeeperRuntime

/// What one database transaction writes: dispatches' progress and the
/// effects of the steps that progress marks done. Either all of it commits
/// or none of it does.
struct JournalBatch: Sendable {
    /// The dispatches whose row changes, as they are after the batch.
    var dispatches: [Dispatch] = []
    /// Effects to keep in the database, with the dispatch that made them.
    var effects: [(dispatch: Int, effect: Effect, product: ProductPolicy)] = []
    /// The share each transaction revoked in part (a prorated refund) had
    /// taken, for the grants its plan makes now: they give what it left.
    var partialRevocations: [String: Int] = [:]

    var isEmpty: Bool { dispatches.isEmpty && effects.isEmpty }
}
