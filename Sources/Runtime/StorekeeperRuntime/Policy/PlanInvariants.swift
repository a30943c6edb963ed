package import StorekeeperCore

/// What every compiled plan must be, checked on the finished plans (and on
/// plans loaded from JSON, which may have been edited): the last line of
/// defence behind the catalog rules that report the same problems at their
/// source.
package enum PlanInvariants {
    /// The most steps a plan may have (the schema says the same).
    package static let maxSteps = 256

    /// What is wrong with a plan's steps for a product of a shape in a situation, or nil.
    package static func violation(of steps: [String], in situation: PlanSituation, shape: DefaultPlan.Shape) -> String? {
        let state = situation.state
        if steps.count > maxSteps { return "a plan has at most \(maxSteps) steps; this one has \(steps.count)" }
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
            // What the default plan delivers, a plan must deliver (before `finish`, as checked above).
            for step in DefaultPlan.steps(for: shape, in: situation) where BuiltInStep.delivering.contains(step) || step == .verifyReceipt {
                if !steps.contains(step.rawValue) {
                    return "the \(situation) plan finishes without `\(step.rawValue)`, which delivering this product takes"
                }
            }
            return nil
        }
    }
}

extension ProductPolicy {
    /// The product's default-plan shape, from the same facts the catalog's
    /// product gives (a test checks the compiled facts are the catalog's).
    package var shape: DefaultPlan.Shape {
        DefaultPlan.Shape(type: type, delivery: delivery, persistence: persistence, contentSource: content?.source,
                          unlocksFeatures: !unlocks.isEmpty, grantsBalances: !grants.isEmpty)
    }
}
