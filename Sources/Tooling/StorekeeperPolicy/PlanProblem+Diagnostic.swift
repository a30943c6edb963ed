import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension PlanProblem {
    /// The check that reports this problem.
    public var check: PlanCheck {
        switch kind {
        case .ambiguous: .ambiguousRules
        case .missingAnchor: .missingAnchor
        case .finishesBeforeDelivery, .finishesWithout: .finishBeforeDelivery
        case .neverFinishes: .planNeverFinishes
        case .finishesPending: .finishWhilePending
        case .neverApplies: .shadowedRule
        case .notApplicable: .stepNotApplicable
        }
    }

    /// The problem as its check reports it, where the author must change
    /// something, with what would be right. `rules` are the custom rules
    /// of the catalog analysed (the problem's indices refer to them).
    func diagnostic(rules: [CustomRule]) -> Diagnostic {
        let rule = rules[self.rule]
        let check = check
        let plan = "the \(situation) plan of \(product)\(morePlans)"
        switch kind {
        case .ambiguous(let earlier):
            let other = rules[earlier]
            return Diagnostic(
                check.severity, rule: check.id,
                "rules '\(other.name.value)' and '\(rule.name.value)' are equally specific and both match \(plan); make one more specific (name a product, a type, or another condition) or narrow one so they do not overlap",
                at: SourceRange(start: rule.condition.location),
                notes: [Diagnostic.Note("'\(other.name.value)' matches here", at: other.condition.location)])
        case .missingAnchor(let step, let at):
            return Diagnostic(
                check.severity, rule: check.id,
                "rule '\(rule.name.value)' inserts next to `\(step)`, but \(plan) has no `\(step)` step; narrow the rule's `when` to products whose plans have it, or insert next to another step",
                at: at)
        case .finishesBeforeDelivery(let step, let stepAt, let finishAt):
            // Both places are known: report at the later one (the step), note the finish.
            let consequence = BuiltInStep.delivering.contains(step) ? "a finished transaction is gone if the app dies now" : "a finished transaction is over"
            return Diagnostic(
                check.severity, rule: check.id,
                "rule '\(rule.name.value)' makes \(plan) `\(step.rawValue)` after `finish`; \(consequence), so move `finish` last",
                at: stepAt,
                notes: finishAt.map { [Diagnostic.Note("it finishes here", at: $0.start)] } ?? [])
        case .finishesWithout(let steps, let finishAt):
            let names = steps.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            return Diagnostic(
                check.severity, rule: check.id,
                "rule '\(rule.name.value)' makes \(plan) finish without \(names), so the purchase would be lost; add \(steps.count == 1 ? "it" : "them") before `finish`",
                at: finishAt)
        case .neverFinishes(let at):
            return Diagnostic(
                check.severity, rule: check.id,
                "rule '\(rule.name.value)' leaves \(plan) without `finish`, so the transaction would come back at every launch; end the steps with `finish`",
                at: at)
        case .finishesPending(let at):
            return Diagnostic(
                check.severity, rule: check.id,
                "rule '\(rule.name.value)' finishes \(plan), but the transaction is still in progress; remove `finish` (the queue updates it again when it completes)",
                at: at)
        case .neverApplies(let winner):
            let other = rules[winner]
            return Diagnostic(
                check.severity, rule: check.id,
                "rule '\(rule.name.value)' never applies: every plan it matches goes to the more specific rule '\(other.name.value)' (rules are not combined); narrow one of them, or move these steps into '\(other.name.value)'",
                at: SourceRange(start: rule.condition.location),
                notes: [Diagnostic.Note("'\(other.name.value)' wins here", at: other.condition.location)])
        case .notApplicable(let step, let at, let reason):
            return Diagnostic(
                check.severity, rule: check.id,
                "rule '\(rule.name.value)' puts `\(step)` in \(plan), but \(reason); narrow the rule's `when` or remove the step",
                at: at)
        }
    }

    /// " (and N more plans)" when the problem occurs in more than one plan.
    private var morePlans: String {
        switch planCount {
        case ...1: ""
        case 2: " (and 1 more plan)"
        default: " (and \(planCount - 1) more plans)"
        }
    }
}
