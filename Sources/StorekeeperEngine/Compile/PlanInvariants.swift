import StorekeeperCatalog
import StorekeeperPolicy

/// What every compiled plan must be, checked on the finished plans (and on
/// plans loaded from JSON, which may have been edited): the last line of
/// defence behind the catalog rules that report the same problems at their
/// source.
enum PlanInvariants {
    /// What is wrong with a plan's steps in a state, or nil.
    static func violation(of steps: [String], in state: TransactionState) -> String? {
        let finish = steps.firstIndex(of: BuiltInStep.finish.rawValue)
        switch state {
        case .purchasing, .deferred:
            return finish == nil ? nil : "a \(state.rawValue) plan must not finish: the transaction is not done"
        case .purchased, .restored, .failed:
            guard let finish else { return "a \(state.rawValue) plan must finish, or the store delivers the transaction again at every launch" }
            if steps.lastIndex(of: BuiltInStep.finish.rawValue) != finish { return "a plan finishes once" }
            if let after = steps[(finish + 1)...].first(where: { BuiltInStep(name: $0) != nil }) {
                return "`\(after)` comes after `finish`: nothing built in may run once the transaction is finished"
            }
            return nil
        }
    }
}
