import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy
import StorekeeperRules
@testable import StorekeeperRuntime
import Testing

/// The compiler never produces a plan that breaks the spec: over hundreds of
/// random rule sets, either it refuses (with plan-rule errors only), or every
/// plan of every product keeps the invariants and delivers what the default
/// plan delivers.
@Suite struct CompilerPropertyTests {
    static let products = [
        EngineFixtures.product(id: "coins.small", type: "consumable", delivery: "{model: built-in, grants: {coins: 5}}", persistence: "app-state", restore: "none"),
        EngineFixtures.product(id: "coins.server", type: "consumable", delivery: "{model: server, grants: {gems: 1}, unlocks: [maps]}", persistence: "server", restore: "none"),
        EngineFixtures.product(id: "pro.forever", type: "non-consumable", delivery: "{model: built-in, unlocks: [pro]}", persistence: "receipt", restore: "receipt-refresh"),
        EngineFixtures.product(id: "maps.pack", type: "non-consumable", delivery: "{model: built-in, unlocks: [maps], content: {source: apple-hosted, size: 20MB}}", persistence: "user-defaults", restore: "restore-transactions"),
        EngineFixtures.product(id: "maps.server", type: "non-consumable", delivery: "{model: server, unlocks: [maps], content: {source: server, path: maps}}", persistence: "server", restore: "server"),
        EngineFixtures.product(id: "sub.monthly", type: "auto-renewable-subscription", delivery: "{model: built-in, unlocks: [pro]}", persistence: "receipt", restore: "receipt-refresh"),
        EngineFixtures.product(id: "pass.season", type: "non-renewing-subscription", delivery: "{model: built-in, unlocks: [pro]}", persistence: "icloud", restore: "icloud"),
    ]

    static let steps = ["notify", "verify-receipt", "download", "persist", "unlock", "grant", "finish", "present-error", "audit-log"]

    static func randomRule(_ number: Int, using random: inout SplitMix64) -> String {
        var when: [String] = []
        let state = Bool.random(using: &random) ? ["purchasing", "deferred", "purchased", "failed", "restored"].randomElement(using: &random) : nil
        if let state { when.append("state: \(state)") }
        if Int.random(in: 0..<3, using: &random) == 0 { when.append("type: \(["consumable", "non-consumable", "auto-renewable-subscription", "non-renewing-subscription"].randomElement(using: &random) ?? "consumable")") }
        if Int.random(in: 0..<3, using: &random) == 0 { when.append("product: \"\(["coins.*", "maps.pack", "*.server", "pro.forever", "*"].randomElement(using: &random) ?? "*")\"") }
        if Int.random(in: 0..<4, using: &random) == 0 { when.append("delivery: \(["built-in", "server"].randomElement(using: &random) ?? "server")") }
        // An error only where the state may be `failed` (anything else is a format error).
        if state == nil || state == "failed", Int.random(in: 0..<4, using: &random) == 0 { when.append("error: \(["payment-cancelled", "network-error", "unknown"].randomElement(using: &random) ?? "unknown")") }
        if when.isEmpty { when.append("state: purchased") }
        let count = Int.random(in: 1...5, using: &random)
        let action: String
        if Bool.random(using: &random) {
            // Any steps: mostly refused, which is the point.
            let written = (0..<count).map { _ in steps.randomElement(using: &random) ?? "notify" }.joined(separator: ", ")
            action = "do: [\(written)]"
        } else {
            // Insertions of harmless steps next to common anchors: mostly compiled.
            let written = (0..<count).map { _ in ["notify", "audit-log"].randomElement(using: &random) ?? "notify" }.joined(separator: ", ")
            let anchor = ["finish", "finish", "notify", "persist", "grant"].randomElement(using: &random) ?? "finish"
            action = "add: {\(Bool.random(using: &random) ? "before" : "after"): \(anchor), steps: [\(written)]}"
        }
        return "  - name: rule-\(number)\n    when: {\(when.joined(separator: ", "))}\n    \(action)\n"
    }

    @Test func everyCompiledPlanKeepsTheSpecsInvariants() throws {
        var random = SplitMix64(seed: 0x5EED_0004)
        var compiled = 0
        var refused = 0
        var reasons: [String: Int] = [:]
        for _ in 0..<300 {
            let rules = (0..<Int.random(in: 1...2, using: &random)).map { Self.randomRule($0, using: &random) }.joined()
            let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.products.joined() + "rules:\n" + rules)
            do {
                let policy = try PolicyCompiler(plugins: EngineFixtures.plugins).compile(catalog)
                compiled += 1
                for product in catalog.products {
                    guard let handle = policy.product(id: product.id.value) else {
                        Issue.record("\(product.id.value) missing")
                        continue
                    }
                    for situation in PlanSituation.all {
                        let plan = policy.plan(for: handle, in: situation)
                        let names = plan.stepNames
                        #expect(PlanInvariants.violation(of: names, in: situation, shape: DefaultPlan.Shape(product)) == nil, "\(names) \(situation)\n\(rules)")
                        let delivering = DefaultPlan.steps(for: product, in: situation).filter { BuiltInStep.delivering.contains($0) || $0 == .verifyReceipt }
                        for step in delivering {
                            #expect(names.contains(step.rawValue), "\(product.id.value) \(situation) lost \(step.rawValue): \(names)\n\(rules)")
                        }
                        if let finish = names.firstIndex(of: "finish") {
                            for step in delivering {
                                #expect((names.firstIndex(of: step.rawValue) ?? Int.max) < finish, "\(step) after finish: \(names)\n\(rules)")
                            }
                        }
                        for step in plan.steps {
                            #expect(StepRequirement.firstUnmet(policy.plugins.requirements(ofStep: step.name), by: product, in: situation, hasServer: true) == nil,
                                    "\(step.name) cannot run for \(product.id.value) \(situation)\n\(rules)")
                        }
                    }
                }
            } catch {
                refused += 1
                for rule in Set(error.diagnostics.map(\.rule)) { reasons[rule, default: 0] += 1 }
                let planRules = Set(RuleRegistry.planRules.map { $0.description.id })
                #expect(!error.diagnostics.isEmpty)
                #expect(error.diagnostics.allSatisfy { planRules.contains($0.rule) }, "\(error.diagnostics.map(\.rule))")
                // In the plan rules' own words: the compiler runs the plan analysis, not the rules.
                let linted = RuleRegistry.check(catalog, steps: EngineFixtures.plugins.stepLibrary, rules: RuleRegistry.planRules)
                #expect(error.diagnostics == Diagnostic.normalized(linted.filter { $0.severity == .error }), "\(rules)")
            }
        }
        // Both outcomes were exercised.
        #expect(compiled > 30, "only \(compiled) of 300 rule sets compiled; refused for \(reasons)")
        #expect(refused > 30, "only \(refused) of 300 rule sets were refused")
    }

    @Test func theEnginesShapeOfAProductIsTheCatalogs() throws {
        var catalogs = try EngineFixtures.exampleCatalogs.map(EngineFixtures.example)
        catalogs.append(try EngineFixtures.everyShape())
        for product in catalogs.flatMap(\.products) {
            #expect(ProductPolicy(product).shape == DefaultPlan.Shape(product), "\(product.id.value)")
        }
    }
}
