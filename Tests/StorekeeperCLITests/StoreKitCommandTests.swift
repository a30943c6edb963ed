import Foundation
import Testing

/// `storekeeper import` and `storekeeper export --format storekit`, end to end.
@Suite struct StoreKitCommandTests {
    static let fixtures = PackagePaths.root.appendingPathComponent("Tests/StorekeeperXcodeConfigTests/Fixtures")
    static let flutter = "flutter-in-app-purchase-example.storekit"
    static let revenueCat = "revenuecat-unit-tests.storekit"

    /// A workspace holding a copy of a fixture.
    func workspace(with fixture: String) throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write(fixture, bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(fixture))))
        return workspace
    }

    func text(_ workspace: Workspace, _ name: String) throws -> String {
        try String(contentsOf: workspace.url.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("import writes the catalog to standard output and the report, located in the .storekit file, to standard error", arguments: [flutter, revenueCat])
    func importToStandardOutput(fixture: String) async throws {
        let workspace = try workspace(with: fixture)
        let result = try await workspace.run("import", fixture)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("# Imported by `storekeeper import` from \(fixture)"))
        #expect(result.stdout.contains("\ncatalog: \(fixture.replacingOccurrences(of: ".storekit", with: ""))\nformat: 1\n"))
        #expect(result.stderr.contains("\(fixture):1:1: note: the app's bundle id is not in a StoreKit configuration file"), "\(result.stderr)")
        #expect(result.stderr.contains(": warning: ") && result.stderr.contains("[storekit-placeholder]"))
        #expect(!result.stderr.contains(": error: "))
        #expect(result.stderr.split(separator: "\n").last?.hasSuffix("in 1 file") == true)
    }

    @Test("import --output writes a catalog that validate passes with no error, policy rules included", arguments: [flutter, revenueCat])
    func importedCatalogValidates(fixture: String) async throws {
        let workspace = try workspace(with: fixture)
        let result = try await workspace.run("import", fixture, "--output", "catalog.yaml", "--name", "shop", "--bundle-id", "com.acme.shop")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "")
        let yaml = try text(workspace, "catalog.yaml")
        #expect(yaml.contains("\ncatalog: shop\n") && yaml.contains("  bundle-id: com.acme.shop\n"))
        let validate = try await workspace.run("validate", "catalog.yaml")
        #expect(validate.status == 0, "\(validate)")
        #expect(!validate.stdout.contains(": error: "))
    }

    @Test("import says an --output it cannot write before its report, and writes nothing")
    func importRefusesAnUnwritableOutputFirst() async throws {
        let workspace = try workspace(with: Self.revenueCat)
        let missingFolder = try await workspace.run("import", Self.revenueCat, "--output", "no-such-folder/catalog.yaml")
        #expect(missingFolder.status == 2, "\(missingFolder)")
        #expect(missingFolder.stderr == "storekeeper: error: --output no-such-folder/catalog.yaml: the folder no-such-folder does not exist; create it, or write elsewhere\n")
        let overInput = try await workspace.run("import", Self.revenueCat, "--output", Self.revenueCat)
        #expect(overInput.status == 2, "\(overInput)")
        #expect(overInput.stderr.hasPrefix("storekeeper: error: --output \(Self.revenueCat) is "), "\(overInput.stderr)")
        #expect(try text(workspace, Self.revenueCat).hasPrefix("{"), "the .storekit file is untouched")
    }

    @Test("import --format json reports on standard error as validate's JSON does")
    func importJSONReport() async throws {
        let workspace = try workspace(with: Self.revenueCat)
        let result = try await workspace.run("import", Self.revenueCat, "--format", "json", "-o", "catalog.yaml")
        #expect(result.status == 0, "\(result)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stderrData) as? [String: Any])
        #expect(report["version"] as? Int == 1)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.allSatisfy { $0["file"] as? String == Self.revenueCat })
        #expect(diagnostics.contains { $0["rule"] as? String == "duplicate-subscription-period" && $0["severity"] as? String == "warning" })
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 0 && (summary["notes"] as? Int ?? 0) > 0)
    }

    @Test("a .storekit file with errors writes nothing and exits 1")
    func importErrors() async throws {
        let workspace = try Workspace()
        try workspace.write("broken.storekit", """
            {
              "products" : [
                {
                  "displayPrice" : "0.999",
                  "localizations" : [ ],
                  "referenceName" : "Pro",
                  "type" : "NonConsumable"
                }
              ],
              "version" : { "major" : 4, "minor" : 0 }
            }

            """)
        try workspace.write("catalog.yaml", "old\n")
        let result = try await workspace.run("import", "broken.storekit", "-o", "catalog.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.contains("broken.storekit:3:5: error: `products[0]` has no `productID`"), "\(result.stderr)")
        #expect(try text(workspace, "catalog.yaml") == "old\n", "nothing is written")
        // The reader's errors alone: no catalog is made of a file it could not read.
        #expect(result.stderr.hasSuffix("1 error in 1 file\n"), "\(result.stderr)")
        let notJSON = try await workspace.run("import", "catalog.yaml")
        #expect(notJSON.status == 1)
        #expect(notJSON.stderr.contains("catalog.yaml:1:1: error: catalog.yaml is not a StoreKit configuration file: it is not valid JSON"))
    }

    @Test("import exits 2 when it cannot run: no such file, a bad --name")
    func importCannotRun() async throws {
        let workspace = try workspace(with: Self.flutter)
        let missing = try await workspace.run("import", "nothing.storekit")
        #expect(missing.status == 2 && missing.stderr.contains("nothing.storekit"), "\(missing)")
        let badName = try await workspace.run("import", Self.flutter, "--name", "My Shop")
        #expect(badName.status == 2 && badName.stderr.contains("--name 'My Shop' contains") && badName.stderr.contains("lower-case letters, digits and '-'"), "\(badName)")
        let sameFile = try await workspace.run("import", Self.flutter, "-o", Self.flutter)
        #expect(sameFile.status == 2 && sameFile.stderr.contains("the file being imported"), "\(sameFile)")
    }

    @Test("export --base of the file a catalog was imported from gives the file back, byte for byte", arguments: [flutter, revenueCat])
    func exportWithBase(fixture: String) async throws {
        let workspace = try workspace(with: fixture)
        #expect(try await workspace.run("import", fixture, "-o", "catalog.yaml").status == 0)
        let result = try await workspace.run("export", "catalog.yaml", "--format", "storekit", "--base", fixture, "-o", "out.storekit")
        #expect(result.status == 0, "\(result)")
        #expect(try text(workspace, "out.storekit") == (try text(workspace, fixture)))
        // Notes only: what the .storekit file has no place for.
        #expect(result.stderr.contains("note: delivery, persistence, restore") && result.stderr.contains("have no place in a StoreKit configuration file"), "\(result.stderr)")
        #expect(!result.stderr.contains(": error: "))
    }

    @Test("export without --base writes Xcode 16's format to standard output, and it imports again")
    func exportWithoutBase() async throws {
        let workspace = try workspace(with: Self.revenueCat)
        #expect(try await workspace.run("import", Self.revenueCat, "-o", "catalog.yaml").status == 0)
        let result = try await workspace.run("export", "catalog.yaml", "--format", "storekit")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("{\n  \"appPolicies\" : {\n"))
        #expect(result.stdout.hasSuffix("  \"version\" : {\n    \"major\" : 4,\n    \"minor\" : 0\n  }\n}\n"))
        #expect(result.stderr.contains("catalog.yaml:") && result.stderr.contains("a new StoreKit configuration file (version 4.0)"))
        try workspace.write("new.storekit", result.stdout)
        let again = try await workspace.run("import", "new.storekit", "-o", "again.yaml")
        #expect(again.status == 0, "\(again)")
        #expect(!again.stderr.contains("storekit-placeholder"), "the placeholders are the file's own texts now")
    }

    @Test("export needs --format storekit, and names the formats when it is missing or wrong")
    func exportFormat() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog())
        let missing = try await workspace.run("export", "shop.yaml")
        #expect(missing.status == 2 && missing.stderr.contains("--format is required") && missing.stderr.contains("the formats are: storekit"), "\(missing)")
        let wrong = try await workspace.run("export", "shop.yaml", "--format", "storekt")
        #expect(wrong.status == 2 && wrong.stderr.contains("'storekt' is not a format export writes; did you mean 'storekit'?"), "\(wrong)")
        #expect(wrong.stdout == "")
    }

    @Test("a catalog with errors exports nothing and exits 1; so does a base that is not a .storekit file")
    func exportErrors() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog().replacingOccurrences(of: "restore: none", with: "restore: nonee"))
        let result = try await workspace.run("export", "shop.yaml", "--format", "storekit", "-o", "out.storekit")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("shop.yaml:14:14: error: 'nonee' is not a valid restore policy"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("out.storekit").path))
        try workspace.write("good.yaml", validCatalog())
        try workspace.write("base.storekit", "{ \"version\" : { \"major\" : 9, \"minor\" : 0 } }\n")
        let badBase = try await workspace.run("export", "good.yaml", "--format", "storekit", "--base", "base.storekit")
        #expect(badBase.status == 1 && badBase.stdout == "", "\(badBase)")
        #expect(badBase.stderr.contains("base.storekit:1:15: error: StoreKit configuration version 9.0 is not one this reader reads"), "\(badBase.stderr)")
        let noBase = try await workspace.run("export", "good.yaml", "--format", "storekit", "--base", "none.storekit")
        #expect(noBase.status == 2, "\(noBase)")
    }
}
