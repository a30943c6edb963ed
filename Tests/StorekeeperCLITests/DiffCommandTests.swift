import Foundation
import Testing

/// `storekeeper diff` end to end, through the built binary: output formats,
/// exit statuses, directories, and the old side read from git.
@Suite("storekeeper diff")
struct DiffCommandTests {
    /// A shop catalog with one non-consumable; each argument changes one thing.
    static func shop(
        name: String = "shop", persistence: String = "receipt", price: String = "2.99", level: String = "2",
        bundleID: String = "com.example.shop", products extra: String = ""
    ) -> String {
        """
        catalog: \(name)
        app:
          bundle-id: \(bundleID)
          minimum-os: "15.0"
        features: [pro]
        groups: {premium: {name: Premium}}
        products:
          - id: com.example.shop.pro
            type: non-consumable
            reference-name: Pro
            price: "\(price)"
            localizations:
              en-US: {title: Pro, description: Everything}
            delivery: {model: built-in, unlocks: [pro]}
            persistence: \(persistence)
            restore: receipt-refresh
          - id: com.example.shop.monthly
            type: auto-renewable-subscription
            reference-name: Monthly
            price: "0.99"
            group: premium
            level: \(level)
            period: P1M
            localizations:
              en-US: {title: Monthly, description: Everything monthly}
            delivery: {model: built-in, unlocks: [pro]}
            persistence: receipt
            restore: receipt-refresh
        \(extra)
        """
    }

    /// A second subscription of the premium group, at level 1.
    static let yearly = """
          - id: com.example.shop.yearly
            type: auto-renewable-subscription
            reference-name: Yearly
            price: "9.99"
            group: premium
            level: 1
            period: P1Y
            localizations:
              en-US: {title: Yearly, description: Everything yearly}
            delivery: {model: built-in, unlocks: [pro]}
            persistence: receipt
            restore: receipt-refresh

        """

    /// A workspace with old.yaml and new.yaml, the new one keeping its record in user defaults.
    static func persistenceChange() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("old.yaml", shop())
        try workspace.write("new.yaml", shop(persistence: "user-defaults"))
        return workspace
    }

    @Test("text: the finding at the new value, the old value in a note, exit 1")
    func text() async throws {
        let workspace = try Self.persistenceChange()
        let result = try await workspace.run("diff", "old.yaml", "new.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("new.yaml:15:18: error: 'com.example.shop.pro' now keeps its record in user defaults instead of in the receipt") == true, "\(result)")
        #expect(lines.first?.hasSuffix("[diff-persistence]") == true)
        #expect(lines.contains("   15 |     persistence: user-defaults"))
        #expect(lines.contains("old.yaml:15:18: note: the old catalog had persistence: receipt here"))
        #expect(lines.last == "1 error in 2 files")
    }

    @Test("json: one document with the diagnostic, its rule and its note")
    func json() async throws {
        let workspace = try Self.persistenceChange()
        let result = try await workspace.run("diff", "--format", "json", "old.yaml", "new.yaml")
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["rule"] as? String == "diff-persistence")
        #expect(diagnostics.first?["file"] as? String == "new.yaml")
        #expect(diagnostics.first?["line"] as? Int == 15)
        let notes = try #require(diagnostics.first?["notes"] as? [[String: Any]])
        #expect(notes.first?["file"] as? String == "old.yaml")
        #expect((document["summary"] as? [String: Any])?["files"] as? Int == 2)
    }

    @Test("sarif: the diff checks are listed as rules, with their help")
    func sarif() async throws {
        let workspace = try Self.persistenceChange()
        let result = try await workspace.run("diff", "--format", "sarif", "old.yaml", "new.yaml")
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == ["diff-persistence"])
        let persistence = try #require(rules.first { $0["id"] as? String == "diff-persistence" })
        #expect(((persistence["help"] as? [String: Any])?["text"] as? String)?.contains("docs/diff.md#diff-persistence") == true)
        #expect(((persistence["shortDescription"] as? [String: Any])?["text"] as? String)?.hasPrefix("A product's persistence strategy changes only") == true)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["diff-persistence"])
        #expect(results.first?["level"] as? String == "error")
    }

    @Test("github: one annotation per finding, titled with the check")
    func github() async throws {
        let workspace = try Self.persistenceChange()
        let result = try await workspace.run("diff", "--format", "github", "old.yaml", "new.yaml")
        #expect(result.status == 1, "\(result)")
        let annotations = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(annotations.count == 1)
        #expect(annotations.first?.hasPrefix("::error file=new.yaml,line=15,col=18,") == true, "\(result)")
        #expect(annotations.first?.contains("title=diff-persistence::") == true)
    }

    @Test("identical catalogs: no problems, exit 0")
    func identical() async throws {
        let workspace = try Workspace()
        try workspace.write("old.yaml", Self.shop())
        try workspace.write("new.yaml", Self.shop())
        let result = try await workspace.run("diff", "--strict", "old.yaml", "new.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 2 files\n")
    }

    @Test("a note never fails, even with --strict; a warning fails only with --strict")
    func severities() async throws {
        let workspace = try Workspace()
        // Monthly below yearly, then level with it: switching between them changes direction.
        try workspace.write("old.yaml", Self.shop(products: Self.yearly))
        try workspace.write("price.yaml", Self.shop(price: "3.99", products: Self.yearly))
        try workspace.write("level.yaml", Self.shop(level: "1", products: Self.yearly))
        let price = try await workspace.run("diff", "--strict", "old.yaml", "price.yaml")
        #expect(price.status == 0, "\(price)")
        #expect(price.lastStdoutLine == "1 note in 2 files")
        let level = try await workspace.run("diff", "old.yaml", "level.yaml")
        #expect(level.status == 0, "\(level)")
        #expect(level.stdout.contains("[diff-subscription-level]"))
        let strict = try await workspace.run("diff", "--strict", "old.yaml", "level.yaml")
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.stdout == level.stdout)
    }

    @Test("a side that does not load: its errors, saying which side, exit 1")
    func loadErrors() async throws {
        let workspace = try Workspace()
        try workspace.write("old.yaml", Self.shop().replacingOccurrences(of: "type: non-consumable", with: "type: non-consumible"))
        try workspace.write("new.yaml", Self.shop(persistence: "user-defaults"))
        let result = try await workspace.run("diff", "old.yaml", "new.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("old.yaml:9:11: error: the old catalog does not load, so it cannot be compared: 'non-consumible' is not a valid product type"), "\(result)")
        #expect(!result.stdout.contains("diff-"), "nothing is compared")
    }

    @Test("could not run: exit 2 with a message naming the side")
    func couldNotRun() async throws {
        let workspace = try Workspace()
        try workspace.write("old.yaml", Self.shop())
        try workspace.makeDirectory("folder")
        let missing = try await workspace.run("diff", "old.yaml", "gone.yaml")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr == "storekeeper: error: NEW: no such file or directory: gone.yaml\n")
        let mixed = try await workspace.run("diff", "old.yaml", "folder")
        #expect(mixed.status == 2, "\(mixed)")
        #expect(mixed.stderr.contains("must be two catalog files or two directories"))
        let one = try await workspace.run("diff", "old.yaml")
        #expect(one.status == 2, "\(one)")
        #expect(one.stderr.contains("name OLD and NEW"))
        #expect(one.stdout == "")
    }

    @Test("directories: catalogs paired by name; one missing from NEW is reported")
    func directories() async throws {
        let workspace = try Workspace()
        try workspace.write("old/a.yaml", Self.shop(name: "alpha"))
        // Other apps: a bundle id shared with another catalog would pair or move them (see below).
        try workspace.write("old/b.yaml", Self.shop(name: "beta", bundleID: "com.example.beta"))
        try workspace.write("new/renamed.yaml", Self.shop(name: "alpha", price: "1.99"))
        try workspace.write("new/gamma.yaml", Self.shop(name: "gamma", bundleID: "com.example.gamma"))
        let result = try await workspace.run("diff", "--format", "json", "old", "new")
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let found = diagnostics.map { "\($0["rule"] as? String ?? "") \($0["file"] as? String ?? "")" }
        #expect(found == ["diff-price new/renamed.yaml", "diff-catalog-removed old/b.yaml"])
    }

    @Test("directories: a renamed catalog is paired by its bundle id, noted, and compared")
    func renamedCatalog() async throws {
        let workspace = try Workspace()
        try workspace.write("old/a.yaml", Self.shop(name: "alpha"))
        try workspace.write("new/a.yaml", Self.shop(name: "rocket", persistence: "user-defaults"))
        let result = try await workspace.run("diff", "--format", "json", "old", "new")
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let found = diagnostics.map { "\($0["rule"] as? String ?? "") \($0["severity"] as? String ?? "") \($0["line"] as? Int ?? 0)" }
        #expect(found.first == "diff-catalog-renamed note 1")
        #expect(found.dropFirst().allSatisfy { $0.hasPrefix("diff-persistence error") } && found.count > 1, "\(found)")
    }

    @Test("the shipped catalogs against themselves: no problems, exit 0")
    func shippedCatalogs() async throws {
        let result = try await CLI.run(["diff", "Catalogs", "Catalogs"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 10 files\n")
    }

    @Test("--list-checks lists every check")
    func listChecks() async throws {
        let result = try await CLI.run(["diff", "--list-checks"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 24)
        #expect(lines.contains { $0.hasPrefix("diff-catalog-removed ") && $0.contains(" error ") })
        #expect(lines.allSatisfy { $0.hasPrefix("diff-") })
        #expect(lines.contains { $0.hasPrefix("diff-product-removed ") && $0.contains(" error ") })
    }
}
