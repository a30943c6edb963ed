import StorekeeperCore
import StorekeeperQueue

/// The contender of `storekeeper-benchmark dispatch` in memory: every transaction through
/// `InMemoryDispatcher.dispatch`, its compiled plan's steps run in order by the queue's executor (built-in
/// steps inline, `audit-log` through its plugin) into one effect buffer, then applied to the dispatcher's
/// ledger.
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
