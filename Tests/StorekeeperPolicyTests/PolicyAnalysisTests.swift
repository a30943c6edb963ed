import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperPolicy
import Testing

@Suite struct PolicyAnalysisTests {
    func analyze(_ rules: String) throws -> PolicyAnalysis {
        let catalog = try #require(PolicyFixtures.catalog(PolicyFixtures.header + "rules:\n" + rules + "products:\n" + PlanCompilerTests.products))
        return PolicyAnalysis(catalog)
    }

    @Test func aCatalogWithoutRulesHasNoProblems() throws {
        let catalog = try #require(PolicyFixtures.everyShape)
        #expect(PolicyAnalysis(catalog).problems.isEmpty)
    }

    @Test func oneProblemPerRuleAndKindCountsItsPlans() throws {
        let analysis = try analyze("""
              - {name: lose-it, when: {state: purchased}, do: [notify, finish]}

            """)
        // coins and gems lose persist and grant; pro loses persist and unlock.
        #expect(analysis.problems.count == 2)
        let first = try #require(analysis.problems.first)
        guard case .finishesWithout(let steps, let at) = first.kind else {
            Issue.record("\(first.kind)")
            return
        }
        #expect(steps == [.persist, .grant])
        #expect(first.planCount == 2 && first.product == "com.example.coins")
        #expect(at.start.line == 8 && at.start.column == 60, "\(at.start.line):\(at.start.column)")
    }

    @Test func finishingADeferredTransactionAndNeverFinishingAFailedOne() throws {
        let analysis = try analyze("""
              - {name: a, when: {state: deferred}, do: [finish]}
              - {name: b, when: {state: failed}, do: [present-error]}

            """)
        let kinds = analysis.problems.map(\.kind)
        #expect(kinds.contains { if case .finishesPending = $0 { true } else { false } })
        let never = try #require(analysis.problems.first { if case .neverFinishes = $0.kind { true } else { false } })
        #expect(never.planCount == 3 * StoreErrorCode.allCases.count, "every failed plan of the three products")
    }

    @Test func stepsThatCannotApply() throws {
        let analysis = try analyze("""
              - {name: a, when: {product: com.example.pro, state: purchased}, do: [persist, unlock, grant, download, present-error, finish]}

            """)
        let steps = analysis.problems.compactMap { problem -> String? in
            if case .notApplicable(let step, _, _) = problem.kind { return step }
            return nil
        }
        #expect(steps == ["grant", "download", "present-error"])
    }

    @Test func verifyingWithoutAServer() throws {
        let text = PolicyFixtures.header.replacingOccurrences(of: "server: {url: \"https://store.example.com\"}\n", with: "")
            + "rules:\n  - {name: a, when: {state: purchased}, add: {before: persist, steps: [verify-receipt]}}\nproducts:\n" + PlanCompilerTests.products
        let catalog = try #require(PolicyFixtures.catalog(text))
        let reasons = PolicyAnalysis(catalog).problems.compactMap { problem -> String? in
            if case .notApplicable(_, _, let reason) = problem.kind { return reason }
            return nil
        }
        #expect(reasons.count == 1 && reasons[0].contains("server"))
    }
}
