import Foundation
import Testing

/// `storekeeper-codegen --policy`, what StorekeeperPolicyPlugin runs: the
/// one catalog's policy, exactly what `storekeeper compile --compact`
/// writes, and nothing at all when the catalog has an error.
@Suite struct CodegenPolicyTests {
    @Test func thePolicyIsWhatCompileWritesAndIsNotRewrittenWhenUnchanged() async throws {
        let workspace = try Workspace()
        try workspace.write("App/catalog.yaml", CodegenToolTests.shop)
        let first = try CodegenToolTests.codegen(["--policy", "--output", "storekeeper-policy.json", "--", "App"], in: workspace.url)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let compiled = try await CLI.run(["compile", "App/catalog.yaml", "--compact", "-o", "compiled.json"], in: workspace.url)
        #expect(compiled.status == 0, "\(compiled)")
        let output = workspace.url.appendingPathComponent("storekeeper-policy.json")
        let written = try Data(contentsOf: output)
        #expect(written == (try Data(contentsOf: workspace.url.appendingPathComponent("compiled.json"))))

        try FileManager.default.setAttributes([.modificationDate: CodegenToolTests.longAgo], ofItemAtPath: output.path)
        let again = try CodegenToolTests.codegen(["--policy", "--output", "storekeeper-policy.json", "--", "App"], in: workspace.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try CodegenToolTests.modificationDate(output) == CodegenToolTests.longAgo, "an unchanged policy was written again")
    }

    @Test func aCatalogWithAnErrorFailsWithValidatesLineAndWritesNothing() throws {
        let workspace = try Workspace()
        try workspace.write("App/catalog.yaml", CodegenToolTests.shop.replacingOccurrences(of: "type: non-consumable", with: "type: non-consumible"))
        let run = try CodegenToolTests.codegen(["--policy", "--output", "storekeeper-policy.json", "--", "App"], in: workspace.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("App/catalog.yaml:9:11: error: 'non-consumible' is not a valid product type"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("storekeeper-policy.json").path))
    }

    @Test func twoCatalogsAreRefusedForWhichPolicyToShip() throws {
        let workspace = try Workspace()
        try workspace.write("App/a.yaml", CodegenToolTests.shop)
        try workspace.write("App/b.yaml", CodegenToolTests.shop.replacingOccurrences(of: "catalog: rocket-racer", with: "catalog: other"))
        let run = try CodegenToolTests.codegen(["--policy", "--output", "storekeeper-policy.json", "--", "App"], in: workspace.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("holds 2 catalogs"), "\(run.stderr)")
    }

    @Test func thePolicyIsNeverWrittenOverTheCatalog() throws {
        let workspace = try Workspace()
        let catalog = try workspace.write("App/catalog.yaml", CodegenToolTests.shop)
        let run = try CodegenToolTests.codegen(["--policy", "--output", "App/catalog.yaml", "--", "App"], in: workspace.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("which the policy is generated from; write the policy elsewhere"), "\(run.stderr)")
        #expect(try String(contentsOf: catalog, encoding: .utf8) == CodegenToolTests.shop)
    }
}
