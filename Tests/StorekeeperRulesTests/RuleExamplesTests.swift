import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy
@testable import StorekeeperRules
import StorekeeperTestSupport
import Testing

/// Every rule's examples are its tests: a triggering example is reported
/// exactly at its `↓` markers, a non-triggering one not at all, and every
/// example is otherwise a valid catalog.
@Suite struct RuleExamplesTests {
    static let rules = RuleRegistry.all.map { $0.description.id }

    func run(_ rule: any CatalogRule.Type, on example: RuleExample) -> (load: [Diagnostic], rule: [Diagnostic], markers: [(line: Int, column: Int)]) {
        let (text, markers) = example.catalog
        let loaded = CatalogLoader(reader: InMemorySourceReader(["example.yaml": text])).load("example.yaml")
        var report = RuleReport(rule: rule.description)
        if let catalog = loaded.catalog {
            rule.init().check(RuleContext(catalog: catalog, steps: StepLibrary(extraSteps: example.extraSteps)), into: &report)
        }
        return (loaded.diagnostics, report.diagnostics, markers)
    }

    @Test(arguments: RuleExamplesTests.rules)
    func triggeringExamplesAreReportedAtTheirMarkers(id: String) throws {
        let rule = try #require(RuleRegistry.all.first { $0.description.id == id })
        #expect(!rule.description.triggering.isEmpty, "\(id) needs a triggering example")
        for example in rule.description.triggering {
            let where_ = Testing.SourceLocation(fileID: example.file, filePath: example.file, line: example.line, column: 1)
            let result = run(rule, on: example)
            #expect(result.load.filter { $0.severity == .error }.isEmpty, "the example must be a valid catalog: \(result.load)", sourceLocation: where_)
            #expect(!result.markers.isEmpty, "a triggering example marks where it is reported", sourceLocation: where_)
            let reported = result.rule.map { "\($0.location.line):\($0.location.column)" }.sorted()
            let expected = result.markers.map { "\($0.line):\($0.column)" }.sorted()
            #expect(reported == expected, sourceLocation: where_)
            #expect(result.rule.allSatisfy { $0.rule == id && $0.severity == rule.description.severity }, sourceLocation: where_)
        }
    }

    @Test(arguments: RuleExamplesTests.rules)
    func nonTriggeringExamplesAreAccepted(id: String) throws {
        let rule = try #require(RuleRegistry.all.first { $0.description.id == id })
        #expect(!rule.description.nonTriggering.isEmpty, "\(id) needs an example it accepts")
        for example in rule.description.nonTriggering {
            let where_ = Testing.SourceLocation(fileID: example.file, filePath: example.file, line: example.line, column: 1)
            let result = run(rule, on: example)
            #expect(result.load.filter { $0.severity == .error }.isEmpty, "the example must be a valid catalog: \(result.load)", sourceLocation: where_)
            #expect(result.markers.isEmpty, sourceLocation: where_)
            #expect(result.rule.isEmpty, "\(result.rule)", sourceLocation: where_)
        }
    }

    @Test func idsAreUniqueKebabCaseAndRationalesCiteTheGuide() {
        let ids = RuleRegistry.all.map { $0.description.id }
        #expect(Set(ids).count == ids.count)
        for rule in RuleRegistry.all {
            let description = rule.description
            #expect(description.id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(description.id)")
            #expect(description.rationale.contains("("), "\(description.id) cites a chapter of the guide")
        }
    }

    @Test func everyCheckTheCompilerEnforcesIsAPlanRule() {
        // The compiler refuses what these checks find, so `validate` must report each under its id.
        let enforced = PlanCheck.enforced.map(\.id).sorted()
        #expect(RuleRegistry.planRules.map { $0.description.id }.sorted() == enforced)
        #expect(RuleRegistry.planRules.allSatisfy { $0.description.severity == .error })
    }

    @Test func theExampleCatalogsFollowEveryRule() throws {
        let run = try CatalogValidator().run([PackageRoot.path + "/Catalogs"])
        #expect(run.catalogs.count == 3)
        // With each catalog's storekeeper.yml (rocket-racer's declares its `audit-log` step).
        let found = try PolicyValidation(reader: FileSystemReader()).check(run.catalogs)
        #expect(found.diagnostics.isEmpty, "\(found.diagnostics)")
        #expect(found.configurationFiles.count == 1)
    }
}
