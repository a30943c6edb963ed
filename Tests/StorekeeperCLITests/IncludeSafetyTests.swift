import Foundation
import Testing

import StorekeeperCore
import StorekeeperPlatform

/// Includes stay in the folder of the catalog file, judged by where files
/// really are, the same for every command and however the catalog is named;
/// a refused file is never quoted, in any output format.
@Suite("Include safety")
struct IncludeSafetyTests {
    /// A catalog in `shop/` whose fragment `fragments/extra.yaml` is a link to
    /// `elsewhere/secrets.yaml`, which holds a password.
    static func linkedSecret() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("elsewhere/secrets.yaml", "db_password: hunter2\n")
        try workspace.write("shop/catalog.yaml", validCatalog(extra: "include: [fragments/extra.yaml]\n"))
        try workspace.makeDirectory("shop/fragments")
        try FileManager.default.createSymbolicLink(
            atPath: workspace.url.appendingPathComponent("shop/fragments/extra.yaml").path,
            withDestinationPath: workspace.url.appendingPathComponent("elsewhere/secrets.yaml").path)
        return workspace
    }

    @Test("a fragment linked to a secret outside: refused at the include, never quoted", arguments: ["text", "json", "sarif", "github"])
    func linkedSecretIsNeverQuoted(format: String) async throws {
        let workspace = try Self.linkedSecret()
        let result = try await workspace.run("validate", "shop/catalog.yaml", "--format", format)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("leads out of the folder of the catalog file (shop) through a symbolic link"), "\(result)")
        // Searching the folder meets the link before any include does: it might be a catalog, so the run stops.
        let searched = try await workspace.run("validate", "shop", "--format", format)
        #expect(searched.status == 2, "\(searched)")
        #expect(searched.stdout == "", "\(searched)")
        #expect(searched.stderr.contains("cannot read shop/fragments/extra.yaml: it is a symbolic link to "), "\(searched)")
        for output in [result.stdout, result.stderr, searched.stdout, searched.stderr] {
            #expect(!output.contains("hunter2") && !output.contains("db_password"), "\(result)\n\(searched)")
        }
    }

    @Test("compile, explain and export refuse the linked secret the same way, without quoting it")
    func otherCommandsRefuseTheLinkedSecret() async throws {
        let workspace = try Self.linkedSecret()
        for arguments in [["compile", "shop/catalog.yaml"], ["explain", "shop/catalog.yaml"], ["export", "shop/catalog.yaml", "--format", "storekit"]] {
            let result = try await CLI.run(arguments, in: workspace.url, environment: CLI.environment())
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains("shop/catalog.yaml:5:11: error: 'fragments/extra.yaml' leads out of the folder of the catalog file (shop) through a symbolic link"), "\(arguments): \(result)")
            #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"), "\(arguments): \(result)")
        }
    }

    /// Before, `validate shop-parent` accepted `../`, and `validate shop/catalog.yaml`
    /// (and so compile, explain, simulate, export) refused it.
    @Test("a ../ fragment is refused whether the catalog file or a folder above it is named")
    func parentFolderIncludeIsTheSameEveryWay() async throws {
        let workspace = try Workspace()
        try workspace.write("repo/shop/catalog.yaml", validCatalog(extra: "include: [../shared/extra.yaml]\n"))
        try workspace.write("repo/shared/extra.yaml", "features: [extra]\n")
        let expected = "repo/shop/catalog.yaml:5:11: error: '../shared/extra.yaml' leaves the folder of the catalog file (repo/shop); keep a catalog's fragments in its folder or below it [include]"
        var outputs: [String] = []
        for named in ["repo", "repo/shop", "repo/shop/catalog.yaml"] {
            let result = try await workspace.run("validate", named, "--no-policy")
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.hasPrefix(expected + "\n"), "\(result)")
            outputs.append(result.stdout)
        }
        #expect(Set(outputs).count == 1, "\(outputs)")
        let compiled = try await workspace.run("compile", "repo/shop/catalog.yaml")
        #expect(compiled.status == 1, "\(compiled)")
        #expect(compiled.stderr.contains(expected), "\(compiled)")
    }

    @Test("a catalog whose file name is not UTF-8 stops the run (exit 2), naming it with its bytes escaped")
    func nonUTF8FileName() async throws {
        let workspace = try Workspace()
        try workspace.write("store/shop.yaml", validCatalog())
        let path = Array(workspace.url.appendingPathComponent("store").path.utf8) + Array("/caf".utf8) + [0xE9, 0xFF] + Array(".yaml".utf8)
        let text = Array(validCatalog(name: "broken", extra: "colour: red\n").utf8)
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let result = try await workspace.run("validate", "store")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.contains("cannot read store: the name 'caf\\xe9\\xff.yaml' in it is not valid UTF-8"), "\(result)")
    }

    @Test("diff at a git revision: a name that is not UTF-8 there stops the run too")
    func nonUTF8FileNameAtARevision() async throws {
        let workspace = try Workspace()
        try workspace.write("store/shop.yaml", validCatalog())
        let path = Array(workspace.url.appendingPathComponent("store").path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".yaml".utf8)
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        close(descriptor)
        try DiffGitTests.git(["init", "-q", "-b", "main"], in: workspace.url)
        try DiffGitTests.git(["add", "-A"], in: workspace.url)
        try DiffGitTests.git(["commit", "-q", "-m", "store"], in: workspace.url)
        #expect(unlink(path.map { CChar(bitPattern: $0) } + [0]) == 0)
        let result = try await workspace.run("diff", "main:store", "store")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("the name 'caf\\xe9.yaml' in it is not valid UTF-8"), "\(result)")
    }

    @Test("--max-total-size bounds a catalog and its fragments together")
    func totalSize() async throws {
        let workspace = try Workspace()
        try workspace.write("shop/catalog.yaml", validCatalog(extra: "include: [a.yaml, b.yaml]\n"))
        try workspace.write("shop/a.yaml", "features: [\(String(repeating: "a", count: 1000))]\n")
        try workspace.write("shop/b.yaml", "features: [\(String(repeating: "b", count: 1000))]\n")
        let within = try await workspace.run("validate", "shop", "--no-policy", "--max-total-size", "4KiB")
        #expect(!within.stdout.contains("yaml-limit"), "\(within)")
        let over = try await workspace.run("validate", "shop", "--no-policy", "--max-total-size", "2KiB")
        #expect(over.status == 1, "\(over)")
        #expect(over.stdout.contains("shop/catalog.yaml:5:19: error: cannot include 'b.yaml': it is 1013 bytes"), "\(over)")
        #expect(over.stdout.contains("over the limit of 2 KiB for a catalog and its fragments together; raise the limit with --max-total-size [yaml-limit]"), "\(over)")
    }
}
