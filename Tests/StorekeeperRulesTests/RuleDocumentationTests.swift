import Foundation
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperRules
import StorekeeperTestSupport
import Testing

/// docs/rules.md is generated from the rules' descriptions; it must match them.
@Suite struct RuleDocumentationTests {
    static let root = URL(fileURLWithPath: PackageRoot.path)

    @Test func docsRulesIsUpToDate() throws {
        let file = Self.root.appendingPathComponent("docs/rules.md")
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written == RuleDocumentation.markdown(), "docs/rules.md is stale; regenerate it: \(RuleDocumentation.regenerateCommand)")
    }

    @Test func everyRuleHasASectionAndARowAndItsExamples() {
        let markdown = RuleDocumentation.markdown()
        for rule in RuleRegistry.descriptions {
            #expect(markdown.contains("\n## \(rule.id)\n"), "\(rule.id) has a section")
            #expect(markdown.contains("| [`\(rule.id)`](#\(rule.id)) | \(rule.severity.rawValue) |"), "\(rule.id) has a row")
            for example in rule.triggering + rule.nonTriggering {
                #expect(markdown.contains(RuleDocumentation.shown(example)), "\(rule.id) shows its example")
            }
        }
    }

    @Test func theListHasOneAlignedLinePerRule() throws {
        let lines = RuleDocumentation.list().split(separator: "\n").map(String.init)
        #expect(lines.count == RuleRegistry.all.count)
        var columns = Set<Int>()
        for (line, rule) in zip(lines, RuleRegistry.descriptions) {
            #expect(line.hasPrefix(rule.id + " "))
            let summary = try #require(line.range(of: rule.summary))
            columns.insert(line.distance(from: line.startIndex, to: summary.lowerBound))
        }
        #expect(columns.count == 1, "summaries start in one column")
    }
}
