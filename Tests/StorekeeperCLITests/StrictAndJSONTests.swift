import Foundation
import Testing

@Suite("--strict")
struct StrictTests {
    /// Valid but for one warning: an unquoted `minimum-os`.
    static let warningsOnly = validCatalog(minimumOS: "15.0")

    @Test("a warnings-only run exits 0 without --strict")
    func warningsPass() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.warningsOnly)
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            shop.yaml:4:15: warning: write the version in quotes, "15.0": unquoted, other YAML tools read it as a number (and 15.10 as 15.1) [unquoted-version]
                4 |   minimum-os: 15.0
                  |               ^~~~
            1 warning in 1 file

            """)
        #expect(result.stderr == "")
    }

    @Test("a warnings-only run exits 1 with --strict, same output", arguments: ["text", "json"])
    func warningsFailWhenStrict(format: String) async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.warningsOnly)
        let relaxed = try await workspace.run("validate", "--format", format, "shop.yaml")
        let strict = try await workspace.run("validate", "--strict", "--format", format, "shop.yaml")
        #expect(relaxed.status == 0, "\(relaxed)")
        #expect(strict.exitedNormally, "\(strict)")
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.stdout == relaxed.stdout)
        #expect(strict.stderr == "")
    }

    @Test("--strict on a clean catalog still exits 0")
    func strictClean() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog())
        let result = try await workspace.run("validate", "--strict", "shop.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test("--strict may come after the paths")
    func strictAfterPaths() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.warningsOnly)
        let result = try await workspace.run("validate", "shop.yaml", "--strict")
        #expect(result.status == 1, "\(result)")
    }
}

@Suite("JSON output")
struct JSONOutputTests {
    @Test("a clean run: exactly one JSON document on stdout, nothing on stderr")
    func cleanRun() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog())
        let result = try await workspace.run("validate", "--format", "json", "shop.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        // JSONSerialization rejects trailing content, so this is one document.
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(document["version"] as? Int == 1)
        #expect((document["diagnostics"] as? [Any])?.count == 0)
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 1)
        #expect(summary["errors"] as? Int == 0)
        #expect(summary["warnings"] as? Int == 0)
        #expect(result.stdout.hasSuffix("}\n"))
        #expect(!result.stdout.hasSuffix("\n\n"))
    }

    @Test("many files with errors: still one document")
    func manyFiles() async throws {
        let workspace = try Workspace()
        try workspace.write("a/shop.yaml", validCatalog(minimumOS: "15.0"))
        try workspace.write("b/shop.yaml", validCatalog(extra: "colour: red\n"))
        try workspace.write("c/shop.yaml", "catalog: [\n")
        try workspace.write("d/shop.yaml", "")
        let result = try await workspace.run("validate", "--format", "json", "a", "b", "c", "d/shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(Set(diagnostics.compactMap { $0["file"] as? String }) == ["a/shop.yaml", "b/shop.yaml", "c/shop.yaml", "d/shop.yaml"])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 4)
        #expect(summary["warnings"] as? Int == 1)
        #expect(summary["errors"] as? Int == diagnostics.count { $0["severity"] as? String == "error" })
    }

    @Test("strings from the file are escaped: quotes, backslashes, control characters")
    func escaping() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog(extra: "\"we\\\"ird\\\\key\\ttab\\u0001\": 1\n"))
        let result = try await workspace.run("validate", "--format", "json", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains(#"we\"ird\\key\ttab\u0001"#), "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let message = try #require(diagnostics.first?["message"] as? String)
        #expect(message.contains("we\"ird\\key\ttab\u{01}"), "\(message)")
    }

    @Test("JSON for bad input is still one document (binary file, deep nesting)")
    func badInput() async throws {
        let workspace = try Workspace()
        try workspace.write("catalog.yaml", bytes: [0x00, 0xFF, 0x1B, 0x22, 0x5C] + Array("\n[[[".utf8))
        try workspace.write("deep.yaml", String(repeating: "[", count: 100_000))
        let result = try await workspace.run("validate", "--format", "json", "catalog.yaml", "deep.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let deep = try #require(diagnostics.first { $0["file"] as? String == "deep.yaml" })
        #expect(deep["line"] as? Int == 1)
        #expect(deep["column"] as? Int == 65)
        #expect(deep["rule"] as? String == "yaml-limit")
    }

    @Test("a usage error in JSON mode prints no JSON, only a message on stderr")
    func usageErrorInJSONMode() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("validate", "--format", "json", "missing.yaml")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.contains("missing.yaml"))
    }
}

@Suite("Help")
struct HelpTests {
    @Test("`storekeeper --help` exits 0 and states the exit statuses")
    func rootHelp() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("--help")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let help = Self.unwrapped(result.stdout)
        #expect(help.contains("Exit status: 0 when no error was found, 1 when any was, 2 when the command could not run."), "\(help)")
        #expect(help.contains("validate"))
    }

    @Test("`storekeeper validate --help` exits 0, states the exit statuses and the options")
    func validateHelp() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("validate", "--help")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let help = Self.unwrapped(result.stdout)
        #expect(help.contains("Exit status: 0 when no error was found, 1 when any was (or, with --strict, any warning), 2 when the command could not run."), "\(help)")
        for option in ["--format", "--color", "--strict", "--max-file-size", "--max-depth", "--max-alias-expansion", "NO_COLOR"] {
            #expect(help.contains(option), "\(option)")
        }
    }

    /// ArgumentParser adds `(default: ...)` itself: the help text must not
    /// say it again (it did, the sizes once in MiB and once in bytes).
    @Test("each limit option states its default once, a size in the unit one types", arguments: ["validate", "compile", "explain", "simulate"])
    func limitDefaultsOnce(command: String) async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(command, "--help")
        #expect(result.status == 0, "\(result)")
        let help = Self.unwrapped(result.stdout)
        let options = try #require(help.range(of: "OPTIONS:").map { help[$0.upperBound...] }, "\(help)")
        for (option, value) in [("--max-file-size", "16MiB"), ("--max-depth", "64"), ("--max-alias-expansion", "1000000")] {
            let described = try #require(options.range(of: "\(option) <"), "\(option) in \(options)")
            let rest = options[described.upperBound...]
            // This option's text runs up to the next option.
            let text = rest.range(of: " --").map { rest[..<$0.lowerBound] } ?? rest
            #expect(text.components(separatedBy: "default").count == 2, "\(option): \(text)")
            #expect(text.contains("(default: \(value))"), "\(option): \(text)")
        }
        #expect(!help.contains("16777216"), "the default size in bytes: \(help)")
        #expect(help.contains("(default 64MiB, or --max-file-size when larger)"), "--max-total-size has no default of its own to show")
    }

    @Test("`storekeeper help validate` matches `storekeeper validate --help`")
    func helpSubcommand() async throws {
        let workspace = try Workspace()
        let viaHelp = try await workspace.run("help", "validate")
        let viaFlag = try await workspace.run("validate", "--help")
        #expect(viaHelp.status == 0, "\(viaHelp)")
        #expect(viaHelp.stdout == viaFlag.stdout)
    }

    @Test("`storekeeper --version` exits 0 and prints a version")
    func version() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("--version")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(result)")
    }

    /// Help text with its line wrapping undone.
    static func unwrapped(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
