import Foundation
import Testing

/// Issue 15, item 9: the commands that read catalogs only (`export`, `diff`,
/// `storekeeper-codegen`) refuse a compiled policy, damaged or not, with one
/// error that says what it is, not a catalog error per member; and
/// `validate` and `explain` agree on what a file is, whatever its name.
@Suite struct PolicyAsCatalogTests {
    /// The shop catalog compiled into `policy.json` (and its variants) in a new workspace.
    func compiled() async throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", PolicyHardeningCommandTests.catalog)
        let result = try await CLI.run(["compile", "shop.yaml", "-o", "policy.json"], in: workspace.url)
        #expect(result.status == 0, "\(result)")
        let policy = try String(contentsOf: workspace.url.appendingPathComponent("policy.json"), encoding: .utf8)
        // A duplicate key: the YAML layer may say so too, which is fine.
        try workspace.write("damaged.json", policy.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1,\n  \"version\": 1,"))
        // Issue 16: its format misspelt.
        try workspace.write("misspelt.json", policy.replacingOccurrences(of: "\"storekeeper-policy\"", with: "\"storekeeper-polcy\""))
        // Cut short, and a comma doubled: not YAML either, and still a policy to every command.
        try workspace.write("cut.json", String(policy.prefix(policy.count * 3 / 5)))
        try workspace.write("comma.json", policy.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1,,"))
        // Members sorted by key (`jq -S`), under a name that is not .json.
        let sorted = try JSONSerialization.jsonObject(with: Data(policy.utf8))
        let data = try JSONSerialization.data(withJSONObject: sorted, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        try workspace.write("sorted.policy", String(decoding: data, as: UTF8.self))
        return workspace
    }

    static let message = "this is a compiled policy (storekeeper compile's output), not a catalog"

    /// The error lines of a run, with no catalog error but the one about the policy.
    func expectOnlyThePolicyError(_ stderr: String, file: String, _ what: String) {
        let errors = stderr.split(separator: "\n").filter { $0.contains("error:") }
        let catalogErrors = errors.filter { !$0.contains("duplicate") }
        #expect(catalogErrors.count == 1, "\(what) \(file): \(stderr)")
        #expect(catalogErrors.first?.contains(Self.message) == true, "\(what) \(file): \(stderr)")
        #expect(catalogErrors.first?.contains("storekeeper explain") == true, "\(what) \(file): \(stderr)")
        #expect(!stderr.contains("unknown") && !stderr.contains("missing") && !stderr.contains("no products"), "\(what) \(file): \(stderr)")
    }

    @Test(arguments: ["policy.json", "damaged.json", "misspelt.json", "cut.json", "comma.json", "sorted.policy"])
    func exportRefusesACompiledPolicyOnce(file: String) async throws {
        let workspace = try await compiled()
        let result = try await CLI.run(["export", file, "--format", "storekit"], in: workspace.url)
        #expect(result.status != 0, "\(result)")
        expectOnlyThePolicyError(result.stderr, file: file, "export")
    }

    @Test(arguments: ["policy.json", "damaged.json", "misspelt.json", "cut.json", "comma.json", "sorted.policy"])
    func diffRefusesACompiledPolicyOnce(file: String) async throws {
        let workspace = try await compiled()
        let result = try await CLI.run(["diff", "shop.yaml", file], in: workspace.url)
        #expect(result.status != 0, "\(result)")
        expectOnlyThePolicyError(result.stdout + result.stderr, file: file, "diff")
    }

    @Test(arguments: ["policy.json", "damaged.json", "misspelt.json", "cut.json", "comma.json", "sorted.policy"])
    func codegenRefusesACompiledPolicyOnce(file: String) async throws {
        let workspace = try await compiled()
        let run = try CodegenToolTests.codegen(["--output", "Catalogs.swift", file], in: workspace.url)
        #expect(run.status != 0, "\(run)")
        expectOnlyThePolicyError(run.stdout + run.stderr, file: file, "codegen")
    }

    @Test func aKeySortedPolicyIsExplainedAndRefusedByValidate() async throws {
        let workspace = try await compiled()
        let explained = try await CLI.run(["explain", "sorted.policy"], in: workspace.url)
        #expect(explained.status == 0, "\(explained)")
        let validated = try await CLI.run(["validate", "sorted.policy"], in: workspace.url)
        #expect(validated.status == 2 && validated.stderr.contains("is a compiled policy, not a catalog"), "\(validated)")
    }

    @Test(arguments: ["package.json", "fragment.json"])
    func aJSONFileThatIsNoPolicyIsACatalogToEveryCommand(file: String) async throws {
        let workspace = try Workspace()
        try workspace.write("package.json", #"{"name": "shop", "version": "1.0.0", "dependencies": {"left-pad": "1.3.0"}}"#)
        try workspace.write("fragment.json", #"{"products": []}"#)
        let validated = try await CLI.run(["validate", file], in: workspace.url)
        let explained = try await CLI.run(["explain", file], in: workspace.url)
        for result in [validated, explained] {
            #expect(result.status == 1, "\(result)")
            #expect(!result.stderr.contains("compiled policy"), "\(result)")
        }
    }
}
