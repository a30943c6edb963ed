import Foundation
import Testing

/// Issue 15, end to end: a damaged or oversized compiled policy is reported
/// as the policy it is, server URLs follow one rule in catalogs and compiled
/// policies, and a problem is reported once, not again as an absence.
@Suite struct PolicyHardeningCommandTests {
    static let catalog = """
        catalog: shop
        app: {bundle-id: com.example.shop}
        server: {url: "https://store.example.com"}
        features: [pro]
        products:
          - id: com.example.shop.pro
            type: non-consumable
            reference-name: Pro
            price: "0.99"
            localizations: {en-US: {title: Pro, description: All of it}}
            delivery: {model: server, unlocks: [pro]}
            persistence: server
            restore: server

        """

    /// The catalog compiled into `policy.json` in a new workspace.
    func compiled() async throws -> (Workspace, String) {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.catalog)
        let result = try await CLI.run(["compile", "shop.yaml", "-o", "policy.json"], in: workspace.url)
        #expect(result.status == 0, "\(result)")
        return (workspace, try String(contentsOf: workspace.url.appendingPathComponent("policy.json"), encoding: .utf8))
    }

    func errors(_ result: CLIResult) -> [String] {
        result.stderr.split(separator: "\n").map(String.init).filter { $0.contains("error:") }
    }

    @Test("a damaged compiled policy: its one JSON error at its line and column, not catalog errors",
          arguments: [("\"catalog\": \"again\"", "duplicate"), ("\"x\": 1e999999999", "exponent"),
                      ("\"x\": " + String(repeating: "[", count: 30) + String(repeating: "]", count: 30), "nest")])
    func aDamagedPolicy(damage: String, words: String) async throws {
        let (workspace, policy) = try await compiled()
        let broken = policy.replacingOccurrences(of: "\"catalog\": \"shop\",", with: "\"catalog\": \"shop\",\n  \(damage),")
        for name in ["policy.json", "policy.out"] {
            try workspace.write(name, broken)
            let result = try await CLI.run(["explain", name], in: workspace.url)
            #expect(result.status == 1, "\(result)")
            let errors = errors(result)
            #expect(errors.count == 1, "\(result)")
            #expect(errors.first?.hasPrefix("\(name):5:") == true, "\(result)")
            #expect(errors.first?.contains(words) == true, "\(result)")
        }
    }

    @Test("validate on a compiled policy, whole or damaged: one error that says what reads it (exit 2), not catalog errors",
          arguments: [("policy.json", false), ("policy.json", true), ("policy.out", false), ("policy.out", true)])
    func validateOnACompiledPolicy(name: String, damaged: Bool) async throws {
        let (workspace, policy) = try await compiled()
        try workspace.write(name, damaged ? policy.replacingOccurrences(of: "\"catalog\": \"shop\",", with: "\"catalog\": \"shop\", \"catalog\": \"x\",") : policy)
        for format in ["text", "json"] {
            let result = try await CLI.run(["validate", name, "shop.yaml", "--format", format], in: workspace.url)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout == "", "\(result)")
            #expect(result.stderr == "storekeeper: error: \(name) is a compiled policy, not a catalog: validate checks catalogs, so validate the catalog it was compiled from; to check the policy itself, run `storekeeper explain \(name)`\n", "\(result)")
        }
    }

    @Test("catalogs in JSON and in YAML's flow style (starting with '{') are still catalogs")
    func catalogsStartingWithABrace() async throws {
        let workspace = try Workspace()
        let flow = "{catalog: shop, format: 1, app: {bundle-id: com.example.shop}, features: [pro], products: [{id: com.example.shop.pro, "
            + "type: non-consumable, reference-name: Pro, price: \"0.99\", localizations: {en-US: {title: Pro, description: All of it}}, "
            + "delivery: {model: built-in, unlocks: [pro]}, persistence: receipt, restore: receipt-refresh}]}\n"
        let json = "{\"catalog\": \"shop\", \"format\": 1, \"app\": {\"bundle-id\": \"com.example.shop\"}, \"features\": [\"pro\"], \"products\": "
            + "[{\"id\": \"com.example.shop.pro\", \"type\": \"non-consumable\", \"reference-name\": \"Pro\", \"price\": \"0.99\", "
            + "\"localizations\": {\"en-US\": {\"title\": \"Pro\", \"description\": \"All of it\"}}, "
            + "\"delivery\": {\"model\": \"built-in\", \"unlocks\": [\"pro\"]}, \"persistence\": \"receipt\", \"restore\": \"receipt-refresh\"}]}\n"
        for (name, text) in [("flow.yaml", flow), ("flow.json", flow), ("catalog.json", json)] {
            try workspace.write(name, text)
            let result = try await CLI.run(["explain", name], in: workspace.url)
            #expect(result.status == 0, "\(name): \(result)")
            #expect(result.stdout.contains("com.example.shop.pro"), "\(name): \(result)")
            let validated = try await CLI.run(["validate", name], in: workspace.url)
            #expect(validated.status == 0, "\(name): \(validated)")
        }
    }

    @Test("a compiled policy over the reader's limit, recognised by its leading bytes whatever its name: one error with the limit and what helps, not advice to use fragments",
          arguments: ["policy.json", "policy.out"])
    func anOversizedPolicy(name: String) async throws {
        let workspace = try Workspace()
        // Sparse after the leading member: the size is checked, and only the start read.
        let file = try workspace.write(name, "{\n  \"format\": \"storekeeper-policy\",\n")
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(257 << 20))
        try handle.close()
        let result = try await CLI.run(["explain", name], in: workspace.url)
        #expect(result.status == 1, "\(result)")
        let errors = errors(result)
        #expect(errors.count == 1, "\(result)")
        #expect(errors.first?.contains("over the limit of 256 MiB") == true, "\(result)")
        #expect(errors.first?.contains("split the catalog into several catalogs") == true, "\(result)")
        #expect(!result.stderr.contains("include"), "\(result)")
        // validate decides the same way.
        let validated = try await CLI.run(["validate", name], in: workspace.url)
        #expect(validated.status == 2, "\(validated)")
        #expect(validated.stderr.hasPrefix("storekeeper: error: \(name) is a compiled policy, not a catalog"), "\(validated)")
    }

    @Test("a large file that is not a policy is a catalog too large, whatever its name", arguments: ["catalog.json", "catalog.yaml"])
    func anOversizedCatalog(name: String) async throws {
        let workspace = try Workspace()
        let file = try workspace.write(name, "")
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(257 << 20))
        try handle.close()
        for command in ["explain", "validate"] {
            let result = try await CLI.run([command, name], in: workspace.url)
            #expect(result.status == 1 && !result.stderr.contains("compiled policy"), "\(command): \(result)")
            #expect((result.stdout + result.stderr).contains("over the limit of 16 MiB"), "\(command): \(result)")
        }
    }

    @Test("server URLs: one rule in the catalog and in the compiled policy",
          arguments: [("http://evil.com\\\\@localhost/", "backslash"), ("javascript:alert(1)", "not a URL"), ("", "not a URL"),
                      ("http://example.com", "uses http"), ("https://user@host", "user name")])
    func serverURLs(url: String, reason: String) async throws {
        let (workspace, policy) = try await compiled()
        // In YAML (double-quoted: a backslash is written twice).
        try workspace.write("bad.yaml", Self.catalog.replacingOccurrences(of: "https://store.example.com", with: url))
        let validate = try await CLI.run(["validate", "bad.yaml", "--color", "never"], in: workspace.url)
        #expect(validate.status == 1, "\(validate)")
        // One error: not also "the catalog declares none" at each server-delivered product.
        #expect(validate.stdout.contains("[insecure-url]") && validate.stdout.contains(reason) && validate.stdout.contains("1 error in 1 file"), "\(validate)")
        // In JSON (a backslash is written twice there too).
        try workspace.write("bad.json", policy.replacingOccurrences(of: "\"https://store.example.com\"", with: "\"\(url)\""))
        let explain = try await CLI.run(["explain", "bad.json"], in: workspace.url)
        #expect(explain.status == 1, "\(explain)")
        #expect(errors(explain).count == 1 && explain.stderr.contains("bad.json: error: server: ") && explain.stderr.contains(reason), "\(explain)")
    }

    @Test("a problem is reported once, not again as an absence", arguments: [
        ("catalog: shop\nformat: 2\napp: {bundle-id: com.example.shop}\nproducts: []\n", "[unsupported-format]"),
        ("catalog: shop\napp: {bundle-id: com.example.shop}\nproducts: {}\n", "[wrong-kind]"),
        ("catalog: shop\napp: {bundle-id: com.example.shop}\ninclude: [missing.yaml]\n", "[include]"),
    ])
    func oneProblemOnce(text: String, rule: String) async throws {
        let workspace = try Workspace()
        try workspace.write("catalog.yaml", text)
        let result = try await CLI.run(["validate", "catalog.yaml", "--color", "never"], in: workspace.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains(rule) && result.stdout.contains("1 error in 1 file") && !result.stdout.contains("no-products"), "\(result)")
    }
}
