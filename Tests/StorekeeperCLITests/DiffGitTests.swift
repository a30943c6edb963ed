import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperTestSupport
import Foundation
import Testing

/// `storekeeper diff` reading the old side from a git revision, in a
/// temporary repository: `REV:PATH`, `--old-revision`, includes at the
/// revision, and what happens without git or with an unknown revision.
@Suite("storekeeper diff from git")
struct DiffGitTests {
    /// Runs git in a folder; the test fails if it does.
    static func git(_ arguments: [String], in directory: URL) throws {
        let run = try ChildProcess(
            "/usr/bin/env", ["git"] + arguments, directory: directory.path,
            environment: CLI.environment([
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
                "GIT_CONFIG_NOSYSTEM": "1",
            ])
        ).run(timeout: .seconds(CLI.timeLimit))
        try #require(run.termination == .exited(0), "git \(arguments.joined(separator: " ")) \(run.termination)")
    }

    /// A repository whose first commit has the shop catalog (with a fragment
    /// under `shop/`), then changed in the work tree: a dearer product in the
    /// fragment, and a record moved to user defaults in the catalog.
    static func repository() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("shop/catalog.yaml", DiffCommandTests.shop(products: "include: [more/extra.yaml]\n"))
        try workspace.write("shop/more/extra.yaml", Self.fragment(price: "1.99"))
        try git(["init", "-q", "-b", "main"], in: workspace.url)
        try git(["add", "-A"], in: workspace.url)
        try git(["commit", "-q", "-m", "shop"], in: workspace.url)
        try workspace.write("shop/catalog.yaml", DiffCommandTests.shop(persistence: "user-defaults", products: "include: [more/extra.yaml]\n"))
        try workspace.write("shop/more/extra.yaml", Self.fragment(price: "2.49"))
        return workspace
    }

    static func fragment(price: String) -> String {
        """
        products:
          - id: com.example.shop.extra
            type: non-consumable
            reference-name: Extra
            price: "\(price)"
            localizations:
              en-US: {title: Extra, description: A little more}
            delivery: {model: built-in, unlocks: [pro]}
            persistence: receipt
            restore: receipt-refresh

        """
    }

    @Test("REV:PATH reads the old catalog and its fragments at the revision")
    func revisionPath() async throws {
        let workspace = try Self.repository()
        let result = try await workspace.run("diff", "--format", "json", "main:shop/catalog.yaml", "shop/catalog.yaml")
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let found = diagnostics.map { diagnostic in
            let note = (diagnostic["notes"] as? [[String: Any]])?.first?["file"] as? String ?? ""
            return "\(diagnostic["rule"] as? String ?? "") \(diagnostic["file"] as? String ?? "") \(note)"
        }
        #expect(found == [
            "diff-persistence shop/catalog.yaml main:shop/catalog.yaml",
            "diff-price shop/more/extra.yaml main:shop/more/extra.yaml",
        ])
        #expect((document["summary"] as? [String: Any])?["files"] as? Int == 4)
    }

    @Test("--old-revision with one path compares it with itself at the revision; text quotes both sides")
    func oldRevisionFlag() async throws {
        let workspace = try Self.repository()
        let flag = try await workspace.run("diff", "--old-revision", "main", "shop")
        #expect(flag.status == 1, "\(flag)")
        #expect(flag.stdout.contains("main:shop/catalog.yaml:15:18: note: the old catalog had persistence: receipt here\n   15 |     persistence: receipt\n"), "\(flag)")
        let pair = try await workspace.run("diff", "--old-revision", "main", "shop/catalog.yaml", "shop/catalog.yaml")
        #expect(pair.status == 1, "\(pair)")
        #expect(pair.lastStdoutLine == "1 error, 1 note in 4 files")
        let directory = try await workspace.run("diff", "main:shop", "shop")
        #expect(directory.stdout == flag.stdout)
    }

    @Test("the revision as committed: no findings")
    func unchanged() async throws {
        let workspace = try Self.repository()
        try Self.git(["add", "-A"], in: workspace.url)
        try Self.git(["commit", "-q", "-m", "change"], in: workspace.url)
        let result = try await workspace.run("diff", "HEAD:shop/catalog.yaml", "shop/catalog.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 4 files\n")
    }

    @Test("a path that exists is a path, even with a colon in its name")
    func existingPathWins() async throws {
        let workspace = try Self.repository()
        // A file literally named like a revision path, holding the changed catalog.
        try workspace.write("main:copy.yaml", DiffCommandTests.shop(persistence: "user-defaults"))
        try workspace.write("now.yaml", DiffCommandTests.shop(persistence: "user-defaults"))
        let result = try await workspace.run("diff", "main:copy.yaml", "now.yaml")
        #expect(result.status == 0, "read from the file system, the two are the same: \(result)")
    }

    @Test("an unknown revision, a path missing at the revision, or no git: exit 2 with what to do")
    func failures() async throws {
        let workspace = try Self.repository()
        let unknown = try await workspace.run("diff", "nosuchbranch:shop/catalog.yaml", "shop/catalog.yaml")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.hasPrefix("storekeeper: error: OLD: 'nosuchbranch' is not a revision of this repository"))
        let missing = try await workspace.run("diff", "main:shop/gone.yaml", "shop/catalog.yaml")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr == "storekeeper: error: OLD: no such file or directory at main: main:shop/gone.yaml\n")
        let option = try await workspace.run("diff", "--old-revision=--output=x", "shop")
        #expect(option.status == 2, "\(option)")
        #expect(option.stderr.contains("not a revision this command accepts"))
        let noGit = try await workspace.run("diff", "main:shop/catalog.yaml", "shop/catalog.yaml",
                                            environment: CLI.environment(["PATH": workspace.url.path]))
        #expect(noGit.status == 2, "\(noGit)")
        #expect(noGit.stderr.hasPrefix("storekeeper: error: OLD: git is not installed or not on PATH"))
        let outside = try Workspace()
        try outside.write("shop.yaml", DiffCommandTests.shop())
        let notRepository = try await outside.run("diff", "main:shop.yaml", "shop.yaml",
                                                  environment: CLI.environment(["GIT_CEILING_DIRECTORIES": outside.url.deletingLastPathComponent().path]))
        #expect(notRepository.status == 2, "\(notRepository)")
        #expect(notRepository.stderr.contains("cannot read a revision here"))
    }
}

extension DiffGitTests {
    @Test("a file at the revision over --max-file-size is refused with its own size, as one on disk is")
    func oversizedAtRevision() async throws {
        let workspace = try Self.repository()
        let body = DiffCommandTests.shop()
        try #require(body.utf8.count < 4_000)
        // A comment ahead of the catalog makes the file 8 KiB, twice the limit.
        try workspace.write("big.yaml", "#" + String(repeating: "x", count: 8_192 - body.utf8.count - 2) + "\n" + body)
        try workspace.write("now.yaml", body)
        try Self.git(["add", "big.yaml"], in: workspace.url)
        try Self.git(["commit", "-q", "-m", "big"], in: workspace.url)
        let result = try await workspace.run("diff", "--max-file-size", "4KiB", "HEAD:big.yaml", "now.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("""
            HEAD:./big.yaml:1:1: error: the old catalog does not load, so it cannot be compared: \
            the file is 8 KiB, over the limit of 4 KiB;
            """), "\(result)")
    }

    @Test("a catalog at the repository's root: its includes are read at the revision too, not from the work tree")
    func rootFile() async throws {
        let workspace = try Workspace()
        try workspace.write("catalog.yaml", DiffCommandTests.shop(products: "include: [extra.yaml]\n"))
        try workspace.write("extra.yaml", Self.fragment(price: "1.99"))
        try Self.git(["init", "-q", "-b", "main"], in: workspace.url)
        try Self.git(["add", "-A"], in: workspace.url)
        try Self.git(["commit", "-q", "-m", "shop"], in: workspace.url)
        try workspace.write("extra.yaml", Self.fragment(price: "2.49"))
        let result = try await workspace.run("diff", "main:catalog.yaml", "catalog.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("extra.yaml:5:12: note: 'com.example.shop.extra' costs 2.49 now, 1.99 before"), "\(result)")
        #expect(result.stdout.contains("main:./extra.yaml:5:12: note: the old catalog had price: 1.99 here"), "\(result)")
    }
}
