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

    var isEmpty: Bool { dispatches.isEmpty && effects.isEmpty }
}
