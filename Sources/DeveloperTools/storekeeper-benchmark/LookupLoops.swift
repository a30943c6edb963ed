import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// The timed loops of `storekeeper-benchmark lookups`: each walks every transaction once and sums what
/// it finds, so that nothing found can go unused.
///
/// Each is its own function, never inlined into the timing, and is handed its inputs through
/// ``Opaque/pass(_:)`` by ``LookupVariant``: the loop is compiled as an app would compile it, knowing
/// nothing of the policy or the transactions.
enum LookupLoops {
    /// The floor: a plan number worked out in advance, read from an array per transaction. The memory
    /// walk that a table lookup cannot beat.
    @inline(never)
    static func baseline(_ planNumbers: [Int32]) -> Int {
        var sum = 0
        for number in planNumbers { sum &+= Int(number) }
        return sum
    }

    /// Dispatch by handle: `planIndex(for:state:error:)`, the table lookup.
    @inline(never)
    static func planIndexByHandle(_ policy: CompiledPolicy, _ transactions: [LookupTransaction]) -> Int {
        var sum = 0
        for transaction in transactions {
            sum &+= policy.planIndex(for: transaction.product, state: transaction.state, error: transaction.error)
        }
        return sum
    }

    /// Dispatch by handle to the plan itself: `plan(for:state:error:)`, reading its step count.
    @inline(never)
    static func planByHandle(_ policy: CompiledPolicy, _ transactions: [LookupTransaction]) -> Int {
        var sum = 0
        for transaction in transactions {
            sum &+= policy.plan(for: transaction.product, state: transaction.state, error: transaction.error).steps.count
        }
        return sum
    }

    /// Dispatch by product id: `product(id:)` (hashing the id, comparing it), then `planIndex`.
    @inline(never)
    static func planIndexByID(_ policy: CompiledPolicy, _ transactions: [LookupTransaction], _ ids: [String]) -> Int {
        var sum = 0
        for position in transactions.indices {
            guard let product = policy.product(id: ids[position]) else { continue }
            let transaction = transactions[position]
            sum &+= policy.planIndex(for: product, state: transaction.state, error: transaction.error)
        }
        return sum
    }
}
