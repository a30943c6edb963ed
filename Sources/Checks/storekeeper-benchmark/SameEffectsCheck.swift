import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// What makes the in-memory comparison fair: before anything is timed, every transaction's effects as the
/// hand-written switch appends them must equal, value for value and in order, the effects its compiled
/// plan's steps ask for.
enum SameEffectsCheck {
    /// Compares the two for every transaction.
    ///
    /// - Throws: ``BenchmarkError`` naming the first transaction whose effects differ, with both lists.
    static func check(_ transactions: [DispatchTransaction], workload: DispatchWorkload) async throws {
        let policy = workload.policy
        var handWritten: [Effect] = []
        for item in transactions {
            let info = item.transaction.info
            handWritten.removeAll(keepingCapacity: true)
            let ranToEnd = HandWrittenDispatch.effects(of: info, product: workload.handWritten[item.product.index], into: &handWritten)
            var planned: [Effect] = []
            var plannedToEnd = true
            let context = StepContext(transaction: info, product: policy.product(item.product), plugins: policy.plugins)
            for step in policy.plan(for: item.product, state: info.state, error: info.error).steps {
                do {
                    planned += try await step.plugin.run(context)
                } catch {
                    plannedToEnd = false
                    break
                }
            }
            guard planned == handWritten, plannedToEnd == ranToEnd else {
                throw BenchmarkError("""
                    transaction \(info.id) (\(info.productID), \(info.state.rawValue)): the hand-written switch does not \
                    append the effects of the plan, so comparing them is not fair:
                      plan:   \(planned)
                      switch: \(handWritten)
                    """)
            }
        }
    }
}
