public import StorekeeperCatalog
public import StorekeeperCore
import StorekeeperDiagnostics

/// Turns a product's default plans and the catalog's custom rules into the
/// plan for each situation: the most specific matching rule changes the
/// default plan (see `RuleSpecificity`); rules are not combined.
///
/// Compiling is pure and per plan, so the same compiler serves checking a
/// catalog (only plans a rule touches need compiling) and building a whole
/// policy table.
public struct PlanCompiler: Sendable {
    /// The catalog's custom rules, in order.
    public let rules: [CustomRule]
    /// Each rule's specificity, by index.
    private let specificity: [RuleSpecificity]

    /// A compiler for a catalog's rules.
    public init(rules: [CustomRule]) {
        self.rules = rules
        specificity = rules.map { RuleSpecificity($0.condition) }
    }

    /// The rules that match a plan: the winner first, then those tied with it
    /// (in catalog order); empty when none matches.
    public func matchingRules(for product: Product, in situation: PlanSituation) -> [Int] {
        resolve(rules.indices.filter { rules[$0].condition.matches(product, in: situation) })
    }

    /// Of the rules that match one plan, the most specific first, then those
    /// tied with it (in catalog order).
    public func resolve(_ matching: [Int]) -> [Int] {
        var best: [Int] = []
        for index in matching {
            if let first = best.first {
                if specificity[index] > specificity[first] {
                    best = [index]
                } else if specificity[index] == specificity[first] {
                    best.append(index)
                }
            } else {
                best = [index]
            }
        }
        return best
    }

    /// The compiled plan for a product in a situation.
    public func plan(for product: Product, in situation: PlanSituation) -> CompiledPlan {
        plan(for: product, in: situation, resolved: matchingRules(for: product, in: situation))
    }

    /// The compiled plan, given the rules `resolve` chose for it.
    public func plan(for product: Product, in situation: PlanSituation, resolved matching: [Int]) -> CompiledPlan {
        let defaults = DefaultPlan.steps(for: product, in: situation).map(PlanStep.init)
        guard let winner = matching.first else {
            return CompiledPlan(steps: defaults, rule: nil, tiedRules: [], missingAnchor: false)
        }
        let tied = Array(matching.dropFirst())
        let written = { (steps: [Located<String>]) in steps.map { PlanStep(name: $0.value, rule: winner, at: $0.range) } }
        switch rules[winner].action {
        case .replace(let steps):
            return CompiledPlan(steps: written(steps), rule: winner, tiedRules: tied, missingAnchor: false)
        case .insert(let anchor, let steps):
            let (name, after) = switch anchor {
            case .before(let step): (step.value, false)
            case .after(let step): (step.value, true)
            }
            guard let position = defaults.firstIndex(where: { $0.name == name }) else {
                return CompiledPlan(steps: defaults, rule: winner, tiedRules: tied, missingAnchor: true)
            }
            var plan = defaults
            plan.insert(contentsOf: written(steps), at: after ? position + 1 : position)
            return CompiledPlan(steps: plan, rule: winner, tiedRules: tied, missingAnchor: false)
        }
    }
}
