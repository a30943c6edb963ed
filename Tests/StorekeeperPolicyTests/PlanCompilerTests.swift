import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperPolicy
import Testing

@Suite struct PlanCompilerTests {
    static let products = PolicyFixtures.product(id: "com.example.coins", type: "consumable", delivery: "{model: built-in, grants: {coins: 5}}", persistence: "app-state", restore: "none")
        + PolicyFixtures.product(id: "com.example.gems", type: "consumable", delivery: "{model: built-in, grants: {coins: 50}}", persistence: "app-state", restore: "none")
        + PolicyFixtures.product(id: "com.example.pro", type: "non-consumable", delivery: "{model: built-in, unlocks: [pro]}", persistence: "receipt", restore: "receipt-refresh")

    func compile(_ rules: String) throws -> (PlanCompiler, Catalog) {
        let catalog = try #require(PolicyFixtures.catalog(PolicyFixtures.header + "rules:\n" + rules + "products:\n" + Self.products))
        return (PlanCompiler(rules: catalog.rules), catalog)
    }

    func product(_ id: String, in catalog: Catalog) throws -> Product {
        try #require(catalog.products.first { $0.id.value == id })
    }

    @Test func theMostSpecificRuleWins() throws {
        let (compiler, catalog) = try compile("""
              - {name: by-state, when: {state: purchased}, do: [persist, notify, finish]}
              - {name: by-type, when: {type: consumable, state: purchased}, do: [persist, grant, finish]}
              - {name: by-pattern, when: {product: "com.example.g*", state: purchased}, do: [persist, grant, notify, notify, finish]}
              - {name: by-id, when: {product: com.example.gems}, do: [persist, grant, notify, finish]}

            """)
        let purchased = PlanSituation(.purchased)
        #expect(compiler.plan(for: try product("com.example.pro", in: catalog), in: purchased).rule == 0)
        #expect(compiler.plan(for: try product("com.example.coins", in: catalog), in: purchased).rule == 1)
        #expect(compiler.plan(for: try product("com.example.gems", in: catalog), in: purchased).rule == 3, "an exact id beats a pattern")
        let gems = compiler.plan(for: try product("com.example.gems", in: catalog), in: purchased)
        #expect(gems.steps.map(\.name) == ["persist", "grant", "notify", "finish"])
        #expect(gems.tiedRules.isEmpty)
        // Provenance: every step of a replaced plan names the rule and where it wrote the step.
        for step in gems.steps {
            guard case .rule(let index, let range) = step.provenance else {
                Issue.record("expected a rule's step")
                continue
            }
            #expect(index == 3)
            #expect(range.start.file == "policy.yaml" && range.start.line == 11, "\(range.start.line):\(range.start.column)")
        }
    }

    @Test func addInsertsBeforeOrAfterItsAnchor() throws {
        let (compiler, catalog) = try compile("""
              - {name: audit, when: {state: purchased}, add: {after: persist, steps: [notify]}}
              - {name: warn, when: {state: failed}, add: {before: finish, steps: [notify]}}

            """)
        let coins = try product("com.example.coins", in: catalog)
        #expect(compiler.plan(for: coins, in: PlanSituation(.purchased)).steps.map(\.name) == ["persist", "notify", "grant", "notify", "finish"])
        #expect(compiler.plan(for: coins, in: PlanSituation(.failed, error: .paymentCancelled)).steps.map(\.name) == ["notify", "finish"])
        let untouched = compiler.plan(for: coins, in: PlanSituation(.restored))
        #expect(untouched.rule == nil && untouched.steps.allSatisfy { $0.provenance == .defaultPlan })
    }

    @Test func aMissingAnchorLeavesTheDefaultPlanAndSaysSo() throws {
        let (compiler, catalog) = try compile("""
              - {name: after-download, when: {state: purchased}, add: {after: download, steps: [notify]}}

            """)
        let plan = compiler.plan(for: try product("com.example.coins", in: catalog), in: PlanSituation(.purchased))
        #expect(plan.missingAnchor)
        #expect(plan.steps.map(\.name) == ["persist", "grant", "notify", "finish"])
    }

    @Test func equallySpecificRulesAreTied() throws {
        let (compiler, catalog) = try compile("""
              - {name: one, when: {type: consumable}, do: [finish]}
              - {name: two, when: {type: consumable}, do: [notify]}
              - {name: three, when: {type: consumable, state: failed}, do: [finish]}

            """)
        let coins = try product("com.example.coins", in: catalog)
        let purchased = compiler.plan(for: coins, in: PlanSituation(.purchased))
        #expect(purchased.rule == 0 && purchased.tiedRules == [1])
        let failed = compiler.plan(for: coins, in: PlanSituation(.failed, error: .unknown))
        #expect(failed.rule == 2 && failed.tiedRules.isEmpty, "naming the state makes a rule more specific")
    }

    @Test func specificityOrder() throws {
        let catalog = try #require(PolicyFixtures.catalog(PolicyFixtures.header + """
            rules:
              - {name: a, when: {product: com.example.coins}, do: [finish]}
              - {name: b, when: {product: "com.*"}, do: [finish]}
              - {name: c, when: {type: consumable}, do: [finish]}
              - {name: d, when: {state: failed, error: unknown, delivery: built-in}, do: [finish]}
              - {name: e, when: {state: failed}, do: [finish]}
            products:

            """ + Self.products))
        let order = catalog.rules.map { RuleSpecificity($0.condition) }
        for index in order.indices.dropLast() {
            #expect(order[index] > order[index + 1], "\(catalog.rules[index].name.value) beats \(catalog.rules[index + 1].name.value)")
        }
    }
}
