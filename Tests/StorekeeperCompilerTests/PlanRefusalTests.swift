import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy
import StorekeeperRules
import StorekeeperRuntime
import Testing

/// The compiler finds the plan problems it refuses with the plan analysis
/// itself, not through the lint rules, and words them as the lint rules do:
/// for each kind of problem, what it refuses is exactly what the plan rules
/// report (ids, severities, messages, places, notes), so the two cannot drift.
@Suite struct PlanRefusalTests {
    /// A catalog's rules, the check they break, and why the case is here.
    struct Case: Sendable {
        var name: String
        var check: PlanCheck
        var rules: String
    }

    static let products = [
        EngineFixtures.product(id: "coins", type: "consumable", delivery: "{model: built-in, grants: {coins: 5}}", persistence: "app-state", restore: "none"),
        EngineFixtures.product(id: "pack", type: "non-consumable", delivery: "{model: built-in, unlocks: [maps], content: {source: apple-hosted, size: 80MB}}",
                               persistence: "receipt", restore: "restore-transactions"),
        EngineFixtures.product(id: "pro", type: "non-consumable", delivery: "{model: built-in, unlocks: [pro]}", persistence: "receipt", restore: "receipt-refresh"),
    ].joined()

    static let cases = [
        Case(name: "two equally specific rules (with a note at the earlier one)", check: .ambiguousRules, rules: """
              - {name: quiet, when: {state: failed}, do: [finish]}
              - {name: loud, when: {state: failed}, do: [present-error, notify, finish]}
            """),
        Case(name: "an anchor some plans lack", check: .missingAnchor, rules: """
              - {name: after-download, when: {state: purchased}, add: {after: download, steps: [notify]}}
            """),
        Case(name: "a built-in step after finish (with a note at the finish)", check: .finishBeforeDelivery, rules: """
              - {name: early, when: {product: coins, state: purchased}, do: [notify, finish, persist, grant]}
            """),
        Case(name: "a plugin's step may follow finish, a built-in one not", check: .finishBeforeDelivery, rules: """
              - {name: late-news, when: {state: purchased}, add: {after: finish, steps: [notify, audit-log]}}
            """),
        Case(name: "finishing without delivering, in several plans", check: .finishBeforeDelivery, rules: """
              - {name: forgetful, when: {state: purchased}, do: [notify, finish]}
            """),
        Case(name: "a completed transaction never finished", check: .planNeverFinishes, rules: """
              - {name: keep, when: {state: failed}, do: [present-error]}
            """),
        Case(name: "a pending transaction finished", check: .finishWhilePending, rules: """
              - {name: give-up, when: {state: deferred}, do: [notify, finish]}
            """),
        Case(name: "a step that cannot apply", check: .stepNotApplicable, rules: """
              - {name: fetch, when: {product: coins, state: purchased}, add: {before: persist, steps: [download]}}
            """),
        Case(name: "misspelt steps, a built-in one and a plugin's", check: .unknownStep, rules: """
              - {name: audit, when: {state: purchased}, add: {after: persit, steps: [audit-lgo]}}
            """),
        Case(name: "an unknown step hides what its plans lack, not an ambiguity", check: .unknownStep, rules: """
              - {name: first, when: {state: purchased}, do: [notify, zzzzzzzzzz]}
              - {name: second, when: {state: purchased}, do: [persist, grant, unlock, download, notify, finish]}
            """),
    ]

    @Test(arguments: PlanRefusalTests.cases.map(\.name))
    func theCompilerRefusesWhatThePlanRulesReport(name: String) throws {
        let example = try #require(Self.cases.first { $0.name == name })
        let catalog = try EngineFixtures.catalog(EngineFixtures.header + "products:\n" + Self.products + "rules:\n" + example.rules)
        let plugins = EngineFixtures.plugins
        let refused: [Diagnostic]
        do {
            _ = try PolicyCompiler(plugins: plugins).compile(catalog)
            Issue.record("compiled, but should not have")
            return
        } catch {
            refused = error.diagnostics
        }
        let linted = RuleRegistry.check(catalog, steps: plugins.stepLibrary, rules: RuleRegistry.planRules).filter { $0.severity == .error }
        #expect(refused.contains { $0.rule == example.check.id }, "\(refused.map(\.rule))")
        #expect(refused == Diagnostic.normalized(linted))
    }

    @Test func everyCheckTheCompilerEnforcesHasACase() {
        #expect(Set(Self.cases.map(\.check.id)) == Set(PlanCheck.enforced.map(\.id)))
    }

    /// Layering: the compiler's closure holds no lint rule (Package.swift
    /// does not list them; this keeps an import from bringing them back).
    @Test func noSourceOfTheCompilerImportsTheRules() throws {
        let folder = EngineFixtures.packageRoot + "/Sources/Tooling/StorekeeperCompiler"
        let files = try #require(FileManager.default.subpaths(atPath: folder)).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let imports = text.split(separator: "\n").filter { line in
                line.split(separator: " ").contains("import") && line.contains("StorekeeperRules")
            }
            #expect(imports.isEmpty, "\(file): \(imports)")
        }
    }
}
