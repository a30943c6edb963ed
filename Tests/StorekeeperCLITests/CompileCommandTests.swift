import Foundation
import Testing

/// `storekeeper compile`, end to end.
@Suite struct CompileCommandTests {
    @Test("compile writes versioned JSON, the plugin step from storekeeper.yml included")
    func compilesTheExample() async throws {
        let workspace = try Workspace()
        let output = workspace.url.appendingPathComponent("policy.json").path
        let result = try await CLI.run(["compile", "Catalogs/rocket-racer/catalog.yaml", "--output", output], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "" && result.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        #expect(document["format"] as? String == "storekeeper-policy")
        #expect(document["version"] as? Int == 3)
        // Rocket Racer does not say what a refund of spent coins does: the default is written out.
        #expect((document["refunds"] as? [String: Any])?["spent-balance"] as? String == "owe")
        #expect((document["products"] as? [Any])?.count == 15)
        let plans = try #require(document["plans"] as? [[String: Any]])
        let steps = plans.flatMap { ($0["steps"] as? [[String: Any]]) ?? [] }
        #expect(steps.contains { $0["step"] as? String == "audit-log" && $0["line"] as? Int != nil })
        // Nothing left behind but the policy.
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path) == ["policy.json"])
    }

    @Test("without --output the policy goes to standard output, on one line with --compact")
    func standardOutput() async throws {
        let result = try await CLI.run(["compile", "--compact", "Catalogs/inkwell/catalog.yaml"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("{\"format\":\"storekeeper-policy\",\"version\":3,"))
        #expect(result.stdout.filter { $0 == "\n" }.count == 1)
    }

    @Test("the catalog's refunds reach the policy, and explain reads them back; a version-2 policy is refused, naming what it lacks")
    func refundsReachThePolicy() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog(extra: "refunds:\n  spent-balance: forgive\n"))
        let compiled = try await workspace.run("compile", "shop.yaml", "--compact")
        #expect(compiled.status == 0, "\(compiled)")
        #expect(compiled.stdout.contains(",\"refunds\":{\"spent-balance\":\"forgive\"},"), "\(compiled.stdout)")
        try workspace.write("policy.json", compiled.stdout)
        #expect(try await workspace.run("explain", "policy.json").status == 0)

        // The same policy as version 2 wrote it: no `refunds`.
        let old = compiled.stdout.replacingOccurrences(of: "\"version\":3,", with: "\"version\":2,")
            .replacingOccurrences(of: "\"refunds\":{\"spent-balance\":\"forgive\"},", with: "")
        try workspace.write("old.json", old)
        let refused = try await workspace.run("explain", "old.json")
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("old.json: error: version: format version 2 cannot be read (an older storekeeper wrote it, without `refunds`"), "\(refused.stderr)")
        #expect(refused.stderr.contains("this version reads 3: compile the catalog again"), "\(refused.stderr)")
    }

    @Test("a misspelt refund policy stops compile at its place, with the nearest value")
    func aMisspeltRefundPolicyStopsCompile() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog(extra: "refunds:\n  spent-balance: forgve\n"))
        let result = try await workspace.run("compile", "shop.yaml", "-o", "policy.json")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("shop.yaml:6:18: error: 'forgve' is not a valid 'spent-balance' refund policy; did you mean 'forgive'? (expected one of: owe, forgive) [invalid-value]"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("policy.json").path))
    }

    @Test("a catalog with errors writes nothing, exits 1 and says why on standard error")
    func errorsWriteNothing() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog().replacingOccurrences(of: "restore: none", with: "restore: nonee"))
        try workspace.write("policy.json", "old policy\n")
        let result = try await workspace.run("compile", "shop.yaml", "-o", "policy.json")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.contains("shop.yaml:14:14: error: 'nonee' is not a valid restore policy"), "\(result.stderr)")
        // The old policy is untouched.
        #expect(try String(contentsOf: workspace.url.appendingPathComponent("policy.json"), encoding: .utf8) == "old policy\n")
    }

    @Test("a plan the compiler refuses is an error even when storekeeper.yml turns its rule off")
    func planRulesCannotBeTurnedOff() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog(extra: "") + """
            rules:
              - name: forget
                when: {state: purchased}
                do: [persist, notify]
            """)
        try workspace.write("storekeeper.yml", "rules:\n  plan-never-finishes: off\n  finish-before-delivery: off\n")
        let validate = try await workspace.run("validate", "shop.yaml")
        #expect(validate.status == 0, "\(validate)")
        let result = try await workspace.run("compile", "shop.yaml", "-o", "policy.json")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("[plan-never-finishes]"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("policy.json").path))
    }

    @Test("warnings are shown but do not stop the compile")
    func warningsDoNotStop() async throws {
        let workspace = try Workspace()
        // A title longer than the App Store shows is a warning.
        try workspace.write("shop.yaml", validCatalog().replacingOccurrences(of: "title: Coins", with: "title: A very long title for a bag of coins"))
        let result = try await workspace.run("compile", "shop.yaml", "-o", "policy.json")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("warning:"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("policy.json").path))
    }

    @Test("a folder with several catalogs, a missing file and an unwritable output exit 2")
    func cannotRun() async throws {
        let several = try await CLI.run(["compile", "Catalogs"], in: PackagePaths.root)
        #expect(several.status == 2, "\(several)")
        #expect(several.stderr.contains("holds 3 catalogs"), "\(several.stderr)")
        let missing = try await CLI.run(["compile", "nope.yaml"], in: PackagePaths.root)
        #expect(missing.status == 2)
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog())
        let unwritable = try await workspace.run("compile", "shop.yaml", "-o", "no/such/folder/policy.json")
        #expect(unwritable.status == 2, "\(unwritable)")
        #expect(unwritable.stderr.contains("cannot write no/such/folder/policy.json"), "\(unwritable.stderr)")
    }

    @Test("--output naming the catalog (or its storekeeper.yml) is refused, and the file is untouched")
    func neverOverwritesItsInput() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog())
        try workspace.write("storekeeper.yml", "rules: {}\n")
        for target in ["shop.yaml", "./shop.yaml", "storekeeper.yml"] {
            let result = try await workspace.run("compile", "shop.yaml", "-o", target)
            #expect(result.status == 2, "\(target): \(result)")
            #expect(result.stderr.contains("which the policy was compiled from"), "\(result.stderr)")
        }
        #expect(try String(contentsOf: workspace.url.appendingPathComponent("shop.yaml"), encoding: .utf8) == validCatalog())
    }

    @Test("a compiled policy is not compiled again; a flow-style YAML catalog is a catalog")
    func inputsByContent() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog())
        let first = try await workspace.run("compile", "shop.yaml", "-o", "policy.json")
        #expect(first.status == 0, "\(first)")
        let again = try await workspace.run("compile", "policy.json", "-o", "again.json")
        #expect(again.status == 2)
        #expect(again.stderr.contains("already a compiled policy"), "\(again.stderr)")
        try workspace.write("flow.yaml", """
            {catalog: flow, app: {bundle-id: com.example.flow}, products: [{id: com.example.flow.coins, type: consumable,
              reference-name: Coins, price: "0.99", localizations: {en-US: {title: Coins, description: A bag of coins}},
              delivery: built-in, persistence: app-state, restore: none}]}
            """)
        let flow = try await workspace.run("compile", "flow.yaml")
        #expect(flow.status == 0, "\(flow)")
        #expect(flow.stdout.contains("\"com.example.flow.coins\""))
    }
}
