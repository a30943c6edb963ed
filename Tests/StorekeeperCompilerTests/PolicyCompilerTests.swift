import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy
@testable import StorekeeperRuntime
import Testing

/// The compiled table against the reference: `PlanCompiler` matching every
/// rule for every plan, the slow and obvious way.
@Suite struct PolicyCompilerTests {
    /// Every product × situation of the policy equals the reference plan.
    func expectMatchesReference(_ policy: CompiledPolicy, _ catalog: Catalog, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let reference = PlanCompiler(rules: catalog.rules)
        #expect(policy.products.count == catalog.products.count, sourceLocation: sourceLocation)
        for product in catalog.products {
            guard let handle = policy.product(id: product.id.value) else {
                Issue.record("\(product.id.value) is missing", sourceLocation: sourceLocation)
                continue
            }
            for situation in PlanSituation.all {
                let expected = reference.plan(for: product, in: situation)
                let plan = policy.plan(for: handle, in: situation)
                #expect(plan.stepNames == expected.steps.map(\.name), "\(product.id.value) \(situation)", sourceLocation: sourceLocation)
                #expect(plan.rule == expected.rule, "\(product.id.value) \(situation)", sourceLocation: sourceLocation)
                let origins = expected.steps.map { step -> StepOrigin in
                    switch step.provenance {
                    case .defaultPlan: .defaultPlan
                    case .rule(let index, let range):
                        .rule(index: index, at: SourcePosition(file: range.start.file, line: range.start.line, column: range.start.column))
                    }
                }
                #expect(plan.steps.map { $0.origin } == origins, "\(product.id.value) \(situation)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: EngineFixtures.exampleCatalogs)
    func exampleCatalogsCompileToTheReferencePlans(name: String) throws {
        let catalog = try EngineFixtures.example(name)
        expectMatchesReference(try PolicyCompiler(plugins: EngineFixtures.plugins).compile(catalog), catalog)
    }

    @Test func everyShapeCompilesToItsDefaultPlans() throws {
        let catalog = try EngineFixtures.everyShape()
        let policy = try PolicyCompiler().compile(catalog)
        expectMatchesReference(policy, catalog)
        // Products of one shape share their plans: far fewer plans than products × situations.
        #expect(policy.plans.count < catalog.products.count * SituationSlot.count / 4)
    }

    @Test func rulesOfEveryKindCompileToTheReferencePlans() throws {
        let rules = """
            rules:
              - name: audit-consumables
                when: {type: consumable, state: purchased}
                add: {after: grant, steps: [audit-log]}
              - name: quiet-cancel
                when: {state: failed, error: payment-cancelled, product: "p1*"}
                do: [audit-log, finish]
              - name: one-product
                when: {product: p30, state: purchased}
                add: {before: finish, steps: [sync-server]}
              - name: server-restores
                when: {delivery: server, state: restored}
                add: {before: finish, steps: [audit-log]}
            """
        let catalog = try EngineFixtures.everyShape(rules: rules)
        let policy = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(catalog)
        expectMatchesReference(policy, catalog)
        let coins = try #require(policy.product(id: "p1"))
        #expect(policy.plan(for: coins, state: .purchased).stepNames == ["persist", "grant", "audit-log", "notify", "finish"])
        #expect(policy.plan(for: coins, state: .failed, error: .paymentCancelled).stepNames == ["audit-log", "finish"])
        #expect(policy.plan(for: coins, state: .failed, error: .networkError).stepNames == ["present-error", "finish"])
        // Each step resolves to its plugin.
        let audit = try #require(policy.plan(for: coins, state: .purchased).steps.first { $0.name == "audit-log" })
        #expect(audit.plugin is RecordingStep)
        // Where the rule wrote it: the rules come last in the file, so count from the end.
        let fileLines = try #require(catalog.rules.last?.stepNames.last?.range.start.line)
        let ruleLines = rules.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(ruleLines.firstIndex { $0.contains("[audit-log]") })
        let column = String(ruleLines[index]).utf8.count - "audit-log]}".utf8.count + 1
        let lastRuleLine = try #require(ruleLines.lastIndex { $0.contains("steps:") })
        #expect(audit.origin == .rule(index: 0, at: SourcePosition(file: "engine.yaml", line: fileLines - (lastRuleLine - index), column: column)))
    }

    @Test func failedWithoutAnErrorDispatchesAsUnknown() throws {
        let policy = try PolicyCompiler().compile(try EngineFixtures.everyShape())
        let product = try #require(policy.product(id: "p2"))
        #expect(policy.planIndex(for: product, state: .failed) == policy.planIndex(for: product, state: .failed, error: .unknown))
        #expect(policy.plan(for: TransactionInfo(id: "t", productID: "nope", state: .purchased)) == nil)
        #expect(policy.plan(for: TransactionInfo(id: "t", productID: "p2", state: .deferred))?.stepNames == ["notify"])
    }

    // MARK: Refusals

    func refusal(_ catalog: Catalog, plugins: PluginRegistry = PluginRegistry()) -> [Diagnostic] {
        do {
            _ = try PolicyCompiler(plugins: plugins).compile(catalog)
            Issue.record("compiled, but should not have")
            return []
        } catch {
            return error.diagnostics
        }
    }

    static let coins = EngineFixtures.product(id: "coins", type: "consumable", delivery: "{model: built-in, grants: {coins: 5}}", persistence: "app-state", restore: "none")
    static let pack = EngineFixtures.product(id: "pack", type: "non-consumable", delivery: "{model: built-in, unlocks: [maps], content: {source: apple-hosted, size: 80MB}}", persistence: "receipt", restore: "restore-transactions")

    @Test func aPlanThatNeverFinishesIsRefusedWhateverTheConfiguration() throws {
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.coins + """
            rules:
              - name: forget
                when: {state: purchased}
                do: [persist, grant, notify]
            """)
        let diagnostics = refusal(catalog)
        #expect(diagnostics.map(\.rule) == ["plan-never-finishes"])
        // At the rule's first step: `do: [persist, ...]`.
        #expect(diagnostics.first?.location.line == 19, "\(diagnostics)")
        #expect(diagnostics.first?.location.column == 10)
    }

    @Test func anUnknownStepIsRefusedWithTheNearestName() throws {
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.coins + """
            rules:
              - name: audit
                when: {state: purchased}
                add: {after: grant, steps: [audit-lgo]}
            """)
        let diagnostics = refusal(catalog, plugins: EngineFixtures.plugins)
        #expect(diagnostics.map(\.rule) == ["unknown-step"])
        #expect(diagnostics.first?.message.contains("audit-log") == true)
        // Without the plugin, the right name is unknown too.
        #expect(refusal(try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.coins + """
            rules:
              - name: audit
                when: {state: purchased}
                add: {after: grant, steps: [audit-log]}
            """)).map(\.rule) == ["unknown-step"])
    }

    @Test func aStepThatCannotApplyIsACompileError() throws {
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.coins + """
            rules:
              - name: fetch
                when: {state: purchased}
                add: {before: persist, steps: [download]}
            """)
        let diagnostics = refusal(catalog)
        #expect(diagnostics.map(\.rule) == ["step-not-applicable"])
        #expect(diagnostics.first?.message.contains("no content to download") == true)
    }

    @Test func aPluginStepsOwnNeedsAreChecked() throws {
        let noServer = """
            catalog: engine
            app: {bundle-id: com.example.app}
            features: [pro, maps]
            balances: [coins, gems]

            """
        let catalog = try EngineFixtures.catalog(noServer + "products:\n" + Self.coins + """
            rules:
              - name: sync
                when: {state: purchased}
                add: {before: finish, steps: [sync-server]}
            """)
        let diagnostics = refusal(catalog, plugins: EngineFixtures.plugins)
        #expect(diagnostics.map(\.rule) == ["step-not-applicable"])
        #expect(diagnostics.first?.message.contains("no `server`") == true)
    }

    @Test func aReplacedBuiltInStepsNeedsAreCheckedOnDefaultPlans() throws {
        struct SmallDownloads: StepPlugin {
            let name = "download"
            var requirements: [StepRequirement] { [.downloadableContent, .contentSize(atMost: 50_000_000)] }
            func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {}
        }
        var plugins = PluginRegistry()
        try plugins.register(SmallDownloads())
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.pack)
        let diagnostics = refusal(catalog, plugins: plugins)
        #expect(diagnostics.map(\.rule) == [PolicyCompiler.pluginRequirementRuleID])
        #expect(diagnostics.first?.message.contains("larger than") == true)
        #expect(diagnostics.first?.location.line == 8)
        // The built-in download takes any size.
        #expect(throws: Never.self) { try PolicyCompiler().compile(catalog) }
    }

    @Test func aPersistencePluginsNeedsAreChecked() throws {
        struct CloudOnly: PersistenceStrategyPlugin {
            let strategy = PersistenceStrategy.icloud
            var requirements: [StepRequirement] { [.productTypes([.nonConsumable])] }
            func records(for context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {}
        }
        var plugins = PluginRegistry()
        plugins.register(CloudOnly())
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + EngineFixtures.product(
            id: "season", type: "non-renewing-subscription", delivery: "{model: built-in, unlocks: [pro]}", persistence: "icloud", restore: "icloud"))
        let diagnostics = refusal(catalog, plugins: plugins)
        #expect(diagnostics.map(\.rule) == [PolicyCompiler.pluginRequirementRuleID])
        #expect(diagnostics.first?.message.contains("`non-consumable`") == true)
    }

    @Test func registeringABadNameIsRefused() {
        var plugins = PluginRegistry()
        #expect(throws: PluginRegistrationError.self) { try plugins.register(RecordingStep(name: "Audit Log")) }
        #expect(throws: PluginRegistrationError.self) { try plugins.register(RecordingStep(name: "1st")) }
        #expect(plugins.step(named: "Audit Log") == nil)
    }
}
