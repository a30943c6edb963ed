public import StorekeeperCatalog
import StorekeeperCore
package import StorekeeperDiagnostics
import StorekeeperPolicy
public import StorekeeperRuntime

/// Compiles a validated catalog into a `CompiledPolicy`: every product's
/// plan for every situation, each step resolved to the plugin that runs it.
///
/// The compiler refuses a catalog whose plans would break the spec's
/// compile-time checks (`PlanCheck.enforced`: unknown or inapplicable
/// steps, ambiguous rules, plans that finish early or never), whatever a
/// configuration says of the lint rules that report them, and a plugin
/// whose declared needs a product does not meet. It finds those problems
/// with the plan analysis itself (`PolicyAnalysis`), in the lint rules'
/// words, and links no lint rule. Other rules (display lengths, say) are
/// the validator's business: compile what `storekeeper validate` accepts.
public struct PolicyCompiler: Sendable {
    /// The plugins steps resolve to.
    public var plugins: PluginRegistry

    /// The id of diagnostics about plugins whose needs a product does not meet.
    public static let pluginRequirementRuleID = "plugin-requirement"

    /// A compiler with these plugins (the built-in ones by default).
    public init(plugins: PluginRegistry = PluginRegistry()) {
        self.plugins = plugins
    }

    /// Compiles a catalog, or throws the errors that stop it.
    public func compile(_ catalog: Catalog) throws(PolicyCompilationError) -> CompiledPolicy {
        try compile(catalog, planRuleErrors: nil)
    }

    /// Compiles a catalog whose plan rules already ran with these plugins'
    /// step library: `planRuleErrors` are the errors they found before any
    /// configuration (the CLI validates first, and would otherwise run them
    /// twice). Nil runs the same checks here.
    package func compile(_ catalog: Catalog, planRuleErrors: [Diagnostic]?) throws(PolicyCompilationError) -> CompiledPolicy {
        var errors = planRuleErrors ?? Self.planErrors(of: catalog, steps: plugins.stepLibrary)
        // A catalog built in code (not decoded) may hold any text: the policy
        // must never carry a URL its own reader would refuse.
        if let url = catalog.server?.url {
            do {
                _ = try ServerURL(parsing: url.value)
            } catch {
                errors.append(Diagnostic(.error, rule: CatalogRuleID.insecureURL, error.description, at: url.range))
            }
        }
        guard errors.isEmpty else { throw PolicyCompilationError(diagnostics: Diagnostic.normalized(errors)) }

        var builder = TableBuilder(catalog: catalog, plugins: plugins)
        builder.build()
        errors = builder.errors
        guard errors.isEmpty else { throw PolicyCompilationError(diagnostics: Diagnostic.normalized(errors)) }

        let products = catalog.products.map(ProductPolicy.init)
        return CompiledPolicy(
            catalog: catalog.name.value, files: catalog.files, server: catalog.server?.url.value,
            refundedSpendPolicy: catalog.refundedSpendPolicy,
            features: catalog.features.map(\.value), balances: catalog.balances.map(\.value),
            products: products,
            rules: catalog.rules.map { RuleReference(name: $0.name.value, position: SourcePosition($0.location)) },
            plans: builder.plans, plugins: plugins, table: builder.table)
    }
}

extension PolicyCompiler {
    /// The errors of the spec's compile-time checks of plans, as the lint
    /// rules of `PlanCheck.enforced` report them before any configuration.
    fileprivate static func planErrors(of catalog: Catalog, steps: StepLibrary) -> [Diagnostic] {
        let analysis = PolicyAnalysis(catalog, steps: steps)
        return PlanCheck.enforced.flatMap { analysis.diagnostics(of: $0) }.filter { $0.severity == .error }
    }
}

extension SourcePosition {
    /// The position of a catalog location.
    init(_ location: SourceLocation) {
        self.init(file: location.file, line: location.line, column: location.column)
    }
}

/// Builds the dispatch table: plans shared by every product of one default
/// shape, and compiled per product only where a custom rule matches.
private struct TableBuilder {
    let catalog: Catalog
    let plugins: PluginRegistry
    let compiler: PlanCompiler
    let ruleIndex: RuleIndex
    let hasServer: Bool
    private(set) var plans: [Plan] = []
    private(set) var table: [Int32] = []
    private(set) var errors: [Diagnostic] = []
    private var planNumbers: [PlanKey: Int32] = [:]
    private var shapes: [DefaultPlan.Shape: [Int32]] = [:]
    /// Per plan: each step's name and needs.
    private var needs: [[(name: String, requirements: [StepRequirement])]] = []
    /// Plans already checked against a situation and shape.
    private var checkedPlans: Set<InvariantKey> = []
    /// Products already found to meet every need, by what the needs read.
    private var metNeeds: Set<NeedsKey> = []

    private struct PlanKey: Hashable {
        var steps: [PlanStep]
        var rule: Int?
        var state: TransactionState
    }

    private struct InvariantKey: Hashable {
        var plan: Int32
        var slot: Int
        var shape: DefaultPlan.Shape
    }

    /// All that a product's needs check reads, for products without custom rules.
    private struct NeedsKey: Hashable {
        var shape: DefaultPlan.Shape
        var type: ProductType
        var contentSize: Int64?
        var unlocks: Bool
        var persistence: PersistenceStrategy
        var content: ContentSource?
    }

    init(catalog: Catalog, plugins: PluginRegistry) {
        self.catalog = catalog
        self.plugins = plugins
        compiler = PlanCompiler(rules: catalog.rules)
        ruleIndex = RuleIndex(catalog.rules)
        hasServer = catalog.server != nil
    }

    mutating func build() {
        let situations = PlanSituation.all
        table.reserveCapacity(catalog.products.count * SituationSlot.count)
        let products = catalog.products
        for position in products.indices {
            let product = products[position]
            checkConsistency(of: product)
            let shape = DefaultPlan.Shape(product)
            let defaults = defaultPlans(for: shape, product: product)
            let candidates = catalog.rules.isEmpty ? [] : ruleIndex.candidates(for: product)
            let start = table.count
            if candidates.isEmpty {
                table += defaults
                let key = NeedsKey(shape: shape, type: product.type.value, contentSize: product.contentSize, unlocks: product.unlocksFeatures,
                                   persistence: product.persistence.strategy.value, content: product.delivery.content?.source.value)
                if !metNeeds.contains(key), checkNeeds(of: product, plans: table[start...]) { metNeeds.insert(key) }
            } else {
                for (slot, situation) in situations.enumerated() {
                    let matching = candidates.filter { catalog.rules[$0].condition.admits(situation) }
                    if matching.isEmpty {
                        table.append(defaults[slot])
                    } else {
                        let compiled = compiler.plan(for: product, in: situation, resolved: compiler.resolve(matching))
                        let number = number(for: compiled.steps, rule: compiled.rule, state: situation.state)
                        checkInvariants(number, slot: slot, shape: shape, product: product, steps: compiled.steps)
                        table.append(number)
                    }
                }
                _ = checkNeeds(of: product, plans: table[start...])
            }
        }
    }

    private mutating func defaultPlans(for shape: DefaultPlan.Shape, product: Product) -> [Int32] {
        if let known = shapes[shape] { return known }
        var numbers: [Int32] = []
        for (slot, situation) in PlanSituation.all.enumerated() {
            let steps = DefaultPlan.steps(for: shape, in: situation).map(PlanStep.init)
            let number = number(for: steps, rule: nil, state: situation.state)
            checkInvariants(number, slot: slot, shape: shape, product: product, steps: steps)
            numbers.append(number)
        }
        shapes[shape] = numbers
        return numbers
    }

    private mutating func number(for steps: [PlanStep], rule: Int?, state: TransactionState) -> Int32 {
        let key = PlanKey(steps: steps, rule: rule, state: state)
        if let known = planNumbers[key] { return known }
        let number = Int32(plans.count)
        planNumbers[key] = number
        var resolved: [ResolvedStep] = []
        var stepNeeds: [(name: String, requirements: [StepRequirement])] = []
        for step in steps {
            let origin: StepOrigin = switch step.provenance {
            case .defaultPlan: .defaultPlan
            case .rule(let index, let range): .rule(index: index, at: SourcePosition(range.start))
            }
            // The plan checks ran first: every name resolves. A name that does
            // not would be a compiler bug, reported rather than trapped.
            guard let plugin = plugins.step(named: step.name) else {
                errors.append(Diagnostic(.error, rule: PlanCheck.unknownStep.id, "no plugin is registered for the step `\(step.name)`",
                                         at: step.provenance.range ?? SourceRange(start: catalog.name.location)))
                continue
            }
            resolved.append(ResolvedStep(name: step.name, plugin: plugin, origin: origin))
            stepNeeds.append((step.name, plugins.requirements(ofStep: step.name)))
        }
        plans.append(Plan(steps: resolved, rule: rule))
        needs.append(stepNeeds)
        return number
    }

    /// The spec's invariants, once per plan, situation and shape. The plan
    /// rules report these problems at their source first; what reaches here
    /// would be a compiler bug, or a plan too long to keep.
    private mutating func checkInvariants(_ number: Int32, slot: Int, shape: DefaultPlan.Shape, product: Product, steps: [PlanStep]) {
        guard checkedPlans.insert(InvariantKey(plan: number, slot: slot, shape: shape)).inserted else { return }
        let situation = SituationSlot.situation(slot)
        guard let violation = PlanInvariants.violation(of: steps.map(\.name), in: situation, shape: shape) else { return }
        errors.append(Diagnostic(.error, rule: "plan-invariant", "the \(situation) plan of \(product.id.value) cannot be kept: \(violation)",
                                 at: steps.lazy.compactMap(\.provenance.range).first ?? product.id.range))
    }

    /// Every step of the product's plans, and its persistence strategy,
    /// content source and receipt validator, against what they need (a
    /// plugin may need more than the built-in one did). True when all are met.
    private mutating func checkNeeds(of product: Product, plans numbers: ArraySlice<Int32>) -> Bool {
        var met = true
        var verifies = false
        for (slot, number) in zip(0..., numbers) {
            for (name, requirements) in needs[Int(number)] {
                if name == BuiltInStep.verifyReceipt.rawValue { verifies = true }
                guard met, !requirements.isEmpty else { continue }
                let situation = SituationSlot.situation(slot)
                if let reason = StepRequirement.firstUnmet(requirements, by: product, in: situation, hasServer: hasServer) {
                    report("the \(situation) plan of \(product.id.value) takes `\(name)`, whose plugin cannot run here: \(reason)", at: product.id.range)
                    met = false
                }
            }
        }
        let anySituation = PlanSituation(.purchased)
        let strategy = plugins.persistence(for: product.persistence.strategy.value)
        if let reason = StepRequirement.firstUnmet(strategy.requirements, by: product, in: anySituation, hasServer: hasServer) {
            report("the plugin for the `\(strategy.strategy.rawValue)` persistence strategy cannot keep \(product.id.value)'s record: \(reason)",
                   at: product.persistence.strategy.range)
            met = false
        }
        if let content = product.delivery.content {
            let source = plugins.contentSource(for: content.source.value)
            if let reason = StepRequirement.firstUnmet(source.requirements, by: product, in: anySituation, hasServer: hasServer) {
                report("the plugin for `\(source.source.rawValue)` content cannot fetch \(product.id.value)'s content: \(reason)", at: content.source.range)
                met = false
            }
        }
        if verifies {
            let validator = plugins.receiptValidator
            if let reason = StepRequirement.firstUnmet(validator.requirements, by: product, in: anySituation, hasServer: hasServer) {
                report("the `\(validator.name)` receipt validator cannot verify \(product.id.value)'s receipts: \(reason)", at: product.id.range)
                met = false
            }
        }
        return met
    }

    /// What `PolicyDecoder` would refuse in the product's policy (a policy
    /// rule turned off lets it through validation): never written.
    private mutating func checkConsistency(of product: Product) {
        guard let problem = ProductConsistency.firstProblem(of: ProductPolicy(product), hasServer: hasServer) else { return }
        let range = switch problem.member {
        case "delivery": product.delivery.model.range
        case "restore": product.restore.policy.range
        case "persistence": product.persistence.strategy.range
        default: product.id.range
        }
        report("\(product.id.value) cannot be compiled: \(problem.message)", at: range)
    }

    private mutating func report(_ message: String, at range: SourceRange) {
        errors.append(Diagnostic(.error, rule: PolicyCompiler.pluginRequirementRuleID, message, at: range))
    }
}
