import StorekeeperCatalog
import StorekeeperCore

/// The states of the generated transactions, in proportions like those an app's transaction queue
/// sees: mostly purchases, some restores, a few purchases still in progress, deferred or failed.
enum TransactionMix {
    /// Each state and its weight, in percent.
    static let weights: [(state: TransactionState, percent: Int)] = [
        (.purchased, 80),
        (.restored, 8),
        (.purchasing, 5),
        (.failed, 5),
        (.deferred, 2),
    ]

    /// The mix in words, for the report, such as `80% purchased, 8% restored, …`.
    static var summary: String {
        weights.map { "\($0.percent)% \($0.state.rawValue)" }.joined(separator: ", ")
            + " (failed with an error drawn evenly from the \(StoreErrorCode.allCases.count) store errors)"
    }

    /// Draws a state from the weights, and for `failed` an error from all the store's errors, evenly.
    static func draw(using random: inout SeededGenerator) -> (state: TransactionState, error: StoreErrorCode?) {
        var roll = random.next(below: 100)
        var state = TransactionState.purchased
        for (candidate, percent) in weights {
            if roll < percent {
                state = candidate
                break
            }
            roll -= percent
        }
        guard state == .failed else { return (state, nil) }
        let errors = StoreErrorCode.allCases
        return (state, errors[errors.index(errors.startIndex, offsetBy: random.next(below: errors.count))])
    }
}
