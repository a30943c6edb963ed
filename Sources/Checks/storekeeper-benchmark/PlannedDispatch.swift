import StorekeeperCore
import StorekeeperQueue

/// The contender of `storekeeper-benchmark dispatch` in memory: every transaction through
/// `InMemoryDispatcher.dispatch`, its compiled plan's steps run in order (each an `async` plugin call
/// returning an array of effects) and the effects applied to the dispatcher's ledger.
enum PlannedDispatch {
    /// Dispatches every transaction; returns how many ran to their end.
    @inline(never)
    static func run(_ transactions: [DispatchTransaction], into dispatcher: inout InMemoryDispatcher) async -> Int {
        var completed = 0
        for item in transactions {
            if await dispatcher.dispatch(item.transaction, product: item.product) { completed += 1 }
        }
        return completed
    }
}
