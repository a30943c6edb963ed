import Foundation
import Testing

/// Exit status 2: the command could not run. Nothing on standard output, a
/// message on standard error that says what is wrong.
@Suite("Could not run (exit 2)")
struct UsageErrorTests {
    /// Runs in a workspace holding one valid catalog, `shop.yaml`, and checks
    /// the exit-2 contract; returns standard error.
    static func expectCouldNotRun(
        _ arguments: String..., setUp: (Workspace) throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", validCatalog())
        try setUp(workspace)
        let result = try await CLI.run(arguments, in: workspace.url)
        #expect(result.exitedNormally, "\(result)", sourceLocation: sourceLocation)
        #expect(result.status == 2, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(!result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
        // Never a crash report or a Swift runtime trap.
        #expect(!result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("crashed"), sourceLocation: sourceLocation)
        return result.stderr
    }

    @Test("a missing path")
    func missingPath() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "nowhere.yaml")
        #expect(stderr == "storekeeper: error: no such file or directory: nowhere.yaml\n")
    }

    @Test("a missing path next to a good one still stops the run")
    func missingPathAmongGood() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "shop.yaml", "gone/")
        #expect(stderr.contains("no such file or directory: gone/"), "\(stderr)")
    }

    @Test("an unknown option")
    func unknownOption() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "--frobnicate", "shop.yaml")
        #expect(stderr.contains("Unknown option '--frobnicate'"), "\(stderr)")
        #expect(stderr.contains("Usage: storekeeper validate"), "\(stderr)")
    }

    @Test("an unknown subcommand")
    func unknownSubcommand() async throws {
        let stderr = try await Self.expectCouldNotRun("vaildate", "shop.yaml")
        #expect(stderr.contains("vaildate"), "\(stderr)")
    }

    @Test("`--format xml`")
    func badFormat() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "--format", "xml", "shop.yaml")
        #expect(stderr.contains("'xml'"), "\(stderr)")
        #expect(stderr.contains("--format"), "\(stderr)")
        #expect(stderr.contains("'text'") && stderr.contains("'json'"), "\(stderr)")
    }

    @Test("no paths at all")
    func noPaths() async throws {
        let stderr = try await Self.expectCouldNotRun("validate")
        #expect(stderr.contains("<paths>"), "\(stderr)")
        #expect(stderr.lowercased().contains("missing"), "\(stderr)")
    }

    @Test("no paths at all, in JSON mode: still nothing on stdout")
    func noPathsJSON() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "--format", "json")
        #expect(stderr.contains("<paths>"), "\(stderr)")
    }

    @Test("a directory with no catalogs")
    func directoryWithoutCatalogs() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "notes") { workspace in
            try workspace.write("notes/fragment.yaml", "products: []\n")
            try workspace.write("notes/readme.txt", "catalog: not-yaml-extension\n")
            try workspace.write("notes/.hidden/catalog.yaml", validCatalog())
        }
        #expect(
            stderr == "storekeeper: error: no catalog found under notes (a catalog is a .yaml or .yml file with a top-level `catalog` key)\n")
    }

    @Test("an empty directory")
    func emptyDirectory() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "empty") { workspace in
            try workspace.makeDirectory("empty")
        }
        #expect(stderr.contains("no catalog found under empty"), "\(stderr)")
    }

    @Test("`--max-depth 0`")
    func maxDepthZero() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "--max-depth", "0", "shop.yaml")
        #expect(stderr.contains("--max-depth must be at least 1"), "\(stderr)")
    }

    @Test("`--max-depth -3` and `--max-depth many`")
    func maxDepthInvalid() async throws {
        let negative = try await Self.expectCouldNotRun("validate", "--max-depth=-3", "shop.yaml")
        #expect(negative.contains("--max-depth"), "\(negative)")
        let word = try await Self.expectCouldNotRun("validate", "--max-depth", "many", "shop.yaml")
        #expect(word.contains("--max-depth"), "\(word)")
    }

    @Test("a file size limit that is not a size", arguments: ["0", "-1", "12XB", "KiB", "99999999999999999999GiB"])
    func badFileSize(value: String) async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "--max-file-size=\(value)", "shop.yaml")
        #expect(stderr.contains("--max-file-size"), "\(stderr)")
    }

    /// `--seed -1` used to say "Missing value" (ArgumentParser took `-1` for
    /// an option); written either way, it now says what a seed must be.
    @Test("`simulate --seed` that is not a seed says what a seed is, written `--seed N` or `--seed=N`",
          arguments: [("-1", "a seed is never negative"), ("9223372036854775808", "9223372036854775808 is too large"), ("ten", "a seed is a whole number")])
    func badSeed(value: String, reason: String) async throws {
        let scenario: (Workspace) throws -> Void = { try $0.write("scenario.yaml", "steps:\n  - launch\n") }
        let spaced = try await Self.expectCouldNotRun("simulate", "shop.yaml", "scenario.yaml", "--seed", value, setUp: scenario)
        let joined = try await Self.expectCouldNotRun("simulate", "shop.yaml", "scenario.yaml", "--seed=\(value)", setUp: scenario)
        let firstLine = spaced.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("Error: The value '\(value)' is invalid for '--seed <n>': \(reason)"), "\(spaced)")
        #expect(firstLine.hasSuffix("a whole number from 0 to 9223372036854775807 (2^63 − 1), as a scenario's `seed` is"), "\(spaced)")
        #expect(joined == spaced)
    }

    @Test("a negative alias expansion limit")
    func negativeAliasLimit() async throws {
        let stderr = try await Self.expectCouldNotRun("validate", "--max-alias-expansion=-1", "shop.yaml")
        #expect(stderr.contains("--max-alias-expansion must be 0 or more"), "\(stderr)")
    }

    @Test("a negative limit after a space is refused for what it is, not read as a missing value")
    func negativeLimitAfterASpace() async throws {
        let alias = try await Self.expectCouldNotRun("validate", "--max-alias-expansion", "-1", "shop.yaml")
        #expect(alias.contains("--max-alias-expansion must be 0 or more"), "\(alias)")
        let depth = try await Self.expectCouldNotRun("validate", "--max-depth", "-3", "shop.yaml")
        #expect(depth.contains("--max-depth must be at least 1"), "\(depth)")
        #expect(!(alias + depth).contains("Missing value"))
    }
}
