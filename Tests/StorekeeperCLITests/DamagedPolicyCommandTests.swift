import Foundation
import Testing

/// Issue 16: a compiled policy damaged on its way (cut short, a comma
/// doubled, its `format` misspelt) is a policy to every command: `explain`,
/// `compile` and `simulate` report the policy reader's one error (where in
/// the JSON, what was expected), `validate` refuses it as a policy, and none
/// reports it as a broken YAML catalog.
@Suite struct DamagedPolicyCommandTests {
    /// A damage: its name, what it does to the compiled text, and what the
    /// one error says (its start after the file name, given the damaged
    /// text, and words in it).
    struct Damage: Sendable, CustomTestStringConvertible {
        var name: String
        var apply: @Sendable (String) -> String
        var location: @Sendable (String) -> String
        var words: String
        var testDescription: String { name }
    }

    static let damages = [
        // Within the `files` array: the error is on the last line.
        Damage(name: "cut short", apply: { text in String(text.prefix { $0 != "]" }) },
               location: { ":\($0.split(separator: "\n", omittingEmptySubsequences: false).count):" }, words: "end of the input"),
        // Within its first member, `format`'s value.
        Damage(name: "cut short in its format", apply: { text in text.range(of: "storekeeper-po").map { String(text[..<$0.upperBound]) } ?? text },
               location: { _ in ":2:" }, words: "end of the input"),
        Damage(name: "a doubled comma", apply: { $0.replacingOccurrences(of: "\"catalog\": \"shop\",", with: "\"catalog\": \"shop\",,") },
               location: { _ in ":4:21:" }, words: "expected a string key after ','"),
        Damage(name: "a misspelt format", apply: { $0.replacingOccurrences(of: "\"storekeeper-policy\"", with: "\"storekeeper-polcy\"") },
               location: { _ in ": error: format: " }, words: "did you mean \"storekeeper-policy\"?"),
    ]

    /// The shop catalog compiled, then damaged, into `name` in a new workspace.
    func damaged(_ damage: Damage, name: String) async throws -> (workspace: Workspace, text: String) {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", PolicyHardeningCommandTests.catalog)
        let result = try await CLI.run(["compile", "shop.yaml", "-o", "policy.out"], in: workspace.url)
        #expect(result.status == 0, "\(result)")
        let policy = try String(contentsOf: workspace.url.appendingPathComponent("policy.out"), encoding: .utf8)
        let broken = damage.apply(policy)
        try #require(broken != policy, "the damage changed nothing")
        try workspace.write(name, broken)
        return (workspace, broken)
    }

    /// What a catalog error about the file would say: none may appear.
    static let catalogWords = ["[yaml-syntax]", "missing 'app'", "missing 'catalog'", "unknown key", "[unknown-key]", "[unsupported-format]"]

    @Test(arguments: damages, ["explain", "compile", "simulate"])
    func aCommandThatReadsPoliciesReportsTheReadersError(damage: Damage, command: String) async throws {
        for name in ["policy.json", "policy.txt"] {
            let (workspace, text) = try await damaged(damage, name: name)
            // simulate reads the policy before its scenario, which need not exist here.
            let arguments = [command, name] + (command == "compile" ? ["-o", "again.json"] : command == "simulate" ? ["scenario.yaml"] : [])
            let result = try await CLI.run(arguments, in: workspace.url)
            // simulate's 1 means an expectation failed; a policy it cannot read is a session that never ran (docs/simulate.md).
            #expect(result.status == (command == "simulate" ? 2 : 1), "\(command) \(name): \(result)")
            let errors = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains("error:") }
            #expect(errors.count == 1, "\(command) \(name): \(result)")
            #expect(errors.first?.hasPrefix(name + damage.location(text)) == true, "\(command) \(name): \(result)")
            #expect(errors.first?.contains(damage.words) == true, "\(command) \(name): \(result)")
            for words in Self.catalogWords { #expect(!(result.stdout + result.stderr).contains(words), "\(command) \(name): \(result)") }
        }
    }

    @Test(arguments: damages)
    func validateRefusesItAsAPolicy(damage: Damage) async throws {
        let workspace = try await damaged(damage, name: "policy.json").workspace
        let result = try await CLI.run(["validate", "policy.json"], in: workspace.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "storekeeper: error: policy.json is a compiled policy, not a catalog: validate checks catalogs, so validate the catalog it was compiled from; to check the policy itself, run `storekeeper explain policy.json`\n", "\(result)")
        for words in Self.catalogWords { #expect(!(result.stdout + result.stderr).contains(words), "\(result)") }
    }
}
