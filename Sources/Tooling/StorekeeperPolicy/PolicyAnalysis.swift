public import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics

/// What is wrong with the plans a catalog's custom rules make, and the
/// diagnostics that say so (`diagnostics(of:)`): the lint rules and the
/// compiler both report from here. Only plans a rule matches are compiled:
/// default plans follow the guide by construction (the policy tests check
/// every one).
public struct PolicyAnalysis: Sendable {
    /// The step names the rules write that no step has.
    public private(set) var unknownSteps: [UnknownStep] = []
    /// The problems, each once per rule and kind, in the order found. A
    /// rule that names an unknown step has none but its ambiguities.
    public private(set) var problems: [PlanProblem] = []
    /// The custom rules analysed, which the problems' indices refer to.
    private let rules: [CustomRule]
    /// The known steps, for the names an unknown one may have meant.
    private let steps: StepLibrary
    private var seen: [ProblemKey: Int] = [:]

    private struct ProblemKey: Hashable {
        var kind: PlanProblem.Kind
        var rule: Int
    }

    /// Compiles every plan of the catalog that a custom rule matches and
    /// collects what is wrong with them.
    ///
    /// Rules are indexed (`RuleIndex`), so each product meets only the
    /// rules that can match it.
    ///
    /// `steps` says what each step needs; a step whose needs the product or
    /// situation does not meet is a problem (`notApplicable`).
    public init(_ catalog: Catalog, steps: StepLibrary = StepLibrary()) {
        let rules = catalog.rules
        self.rules = rules
        self.steps = steps
        guard !rules.isEmpty else { return }
        unknownSteps = UnknownStep.all(in: rules, steps: steps)
        let compiler = PlanCompiler(rules: rules)
        // An invalid `server` is already reported: steps are not also said to lack one.
        let hasServer = catalog.server != nil || catalog.serverIsInvalid
        let index = RuleIndex(rules)
        // Only situations some rule can match are worth a look: a rule for
        // cancelled payments touches one situation of each product, not fifteen.
        let situations = PlanSituation.all.filter { situation in
            rules.contains { $0.condition.admits(situation) }
        }
        var matchedSomewhere = [Bool](repeating: false, count: rules.count)
        var changedSomewhere = [Bool](repeating: false, count: rules.count)
        var shadowedBy = [Int?](repeating: nil, count: rules.count)
        // By index: a product is copied only when a rule matches it.
        let products = catalog.products
        for position in products.indices {
            let candidates = index.candidates(for: products[position])
            guard !candidates.isEmpty else { continue }
            for situation in situations {
                let matching = candidates.filter { rules[$0].condition.admits(situation) }
                guard !matching.isEmpty else { continue }
                let resolved = compiler.resolve(matching)
                for rule in matching { matchedSomewhere[rule] = true }
                for rule in resolved { changedSomewhere[rule] = true }
                if let winner = resolved.first {
                    for rule in matching where shadowedBy[rule] == nil && !resolved.contains(rule) { shadowedBy[rule] = winner }
                }
                let product = products[position]
                let plan = compiler.plan(for: product, in: situation, resolved: resolved)
                guard let rule = plan.rule else { continue }
                check(plan, rule: rule, product: product, situation: situation, hasServer: hasServer, rules: rules, steps: steps)
            }
        }
        for index in rules.indices where matchedSomewhere[index] && !changedSomewhere[index] {
            guard let winner = shadowedBy[index] else { continue }
            problems.append(PlanProblem(kind: .neverApplies(shadowedBy: winner), rule: index, product: "", situation: PlanSituation(.purchased), planCount: 0))
        }
        // A rule naming an unknown step is reported as such; what its plans
        // would then lack (a misspelt `finish`) would only repeat it.
        let broken = Set(unknownSteps.map(\.rule))
        if !broken.isEmpty { problems.removeAll { broken.contains($0.rule) && !$0.isAmbiguity } }
    }

    /// What one check reports, in the order found: every lint rule about
    /// plans reports this, and the compiler refuses what the
    /// `PlanCheck.enforced` checks report.
    public func diagnostics(of check: PlanCheck) -> [Diagnostic] {
        if check == .unknownStep {
            return unknownSteps.map { $0.diagnostic(steps: steps) }
        }
        return problems.filter { $0.check == check }.map { $0.diagnostic(rules: rules) }
    }

    private mutating func record(_ kind: PlanProblem.Kind, rule: Int, product: Product, situation: PlanSituation) {
        let key = ProblemKey(kind: kind, rule: rule)
        if let index = seen[key] {
            problems[index].planCount += 1
        } else {
            seen[key] = problems.count
            problems.append(PlanProblem(kind: kind, rule: rule, product: product.id.value, situation: situation, planCount: 1))
        }
    }

    private mutating func check(_ plan: CompiledPlan, rule: Int, product: Product, situation: PlanSituation, hasServer: Bool, rules: [CustomRule], steps: StepLibrary) {
        for other in plan.tiedRules {
            // Reported at the later rule, with the earlier one in a note.
            record(.ambiguous(earlier: min(rule, other)), rule: max(rule, other), product: product, situation: situation)
        }
        if plan.missingAnchor, case .insert(let anchor, _) = rules[rule].action {
            let step = switch anchor {
            case .before(let name), .after(let name): name
            }
            record(.missingAnchor(step: step.value, at: step.range), rule: rule, product: product, situation: situation)
            return
        }
        let ruleRange = rules[rule].condition.location
        let firstWritten = plan.steps.first { $0.provenance.range != nil }?.provenance.range ?? SourceRange(start: ruleRange)
        let finish = plan.firstIndex(of: .finish)
        switch situation.state {
        case .purchasing, .deferred:
            if let finish {
                record(.finishesPending(at: plan.steps[finish].provenance.range ?? firstWritten), rule: rule, product: product, situation: situation)
            }
        case .purchased, .restored, .failed:
            guard let finish else {
                record(.neverFinishes(at: firstWritten), rule: rule, product: product, situation: situation)
                break
            }
            let required = DefaultPlan.steps(for: product, in: situation).filter { BuiltInStep.delivering.contains($0) || $0 == .verifyReceipt }
            let missing = required.filter { !plan.contains($0) }
            if !missing.isEmpty {
                record(.finishesWithout(steps: missing, finishAt: plan.steps[finish].provenance.range ?? firstWritten),
                       rule: rule, product: product, situation: situation)
            }
            // Finishing ends the transaction: nothing built in comes after it
            // (a plugin's step, such as an audit log, may).
            for index in plan.steps.indices where index > finish {
                guard let step = plan.steps[index].builtIn else { continue }
                record(.finishesBeforeDelivery(step: step, stepAt: plan.steps[index].provenance.range ?? firstWritten,
                                               finishAt: plan.steps[finish].provenance.range),
                       rule: rule, product: product, situation: situation)
            }
        }
        for step in plan.steps {
            guard let range = step.provenance.range,
                  let reason = StepRequirement.firstUnmet(steps.requirements(of: step.name), by: product, in: situation, hasServer: hasServer)
            else { continue }
            record(.notApplicable(step: step.name, at: range, reason: reason), rule: rule, product: product, situation: situation)
        }
    }
}
