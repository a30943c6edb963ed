import Foundation
import Testing

import StorekeeperCore
import StorekeeperPlatform

/// What a directory may hold besides plain files: it never makes the command
/// crash, hang, or report a file twice.
@Suite("File system")
struct FileSystemTests {
    @Test("`.yml` files are found, hidden folders and other extensions are skipped")
    func discovery() async throws {
        let workspace = try Workspace()
        try workspace.write("store/a.yml", validCatalog(name: "alpha", minimumOS: "15.0"))
        try workspace.write("store/nested/deeper/b.yaml", validCatalog(name: "beta", minimumOS: "16.0"))
        try workspace.write("store/.git/c.yaml", validCatalog(name: "gamma", minimumOS: "17.0"))
        try workspace.write("store/d.yaml.bak", validCatalog(name: "delta", minimumOS: "18.0"))
        try workspace.write("store/.hidden.yaml", validCatalog(name: "epsilon", minimumOS: "19.0"))
        let result = try await workspace.run("validate", "store")
        #expect(result.status == 0, "\(result)")
        let headers = result.stdout.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(headers.map { $0.prefix { $0 != " " } } == ["store/a.yml:4:15:", "store/nested/deeper/b.yaml:4:15:"])
        #expect(result.lastStdoutLine == "2 warnings in 2 files")
    }

    @Test("a fragment shared by two catalogs is reported once and counted once")
    func sharedFragment() async throws {
        let workspace = try Workspace()
        for name in ["one", "two"] {
            try workspace.write("store/\(name).yaml", validCatalog(name: name, extra: "include: [common.yaml]\n")
                .replacingOccurrences(of: "com.example.shop.coins", with: "com.example.\(name).coins"))
        }
        try workspace.write("store/common.yaml", "features: [a]\ncolour: red\n")
        let result = try await workspace.run("validate", "store")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == """
            store/common.yaml:2:1: error: unknown key 'colour' in a fragment; expected one of: products, groups, features, balances, rules, include [unknown-key]
                2 | colour: red
                  | ^~~~~~
            1 error in 3 files

            """)
    }

    @Test("a FIFO named explicitly is not waited on: exit 2 with a message")
    func fifoNamedExplicitly() async throws {
        let workspace = try Workspace()
        let path = workspace.url.appendingPathComponent("pipe.yaml").path
        try #require(mkfifo(path, 0o644) == 0)
        let result = try await workspace.run("validate", "pipe.yaml")
        #expect(!result.timedOut, "hung reading a FIFO: \(result)")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.contains("pipe.yaml"), "\(result)")
    }

    @Test("a FIFO named catalog.yaml in a directory does not hang the scan")
    func fifoInDirectory() async throws {
        let workspace = try Workspace()
        try workspace.makeDirectory("store")
        try workspace.write("store/shop.yaml", validCatalog())
        try #require(mkfifo(workspace.url.appendingPathComponent("store/catalog.yaml").path, 0o644) == 0)
        let result = try await workspace.run("validate", "store")
        #expect(!result.timedOut, "hung reading a FIFO: \(result)")
        #expect(result.exitedNormally, "\(result)")
        // Skipped (exit 0, the other catalog is fine) or reported as unreadable (exit 2).
        #expect(result.status == 0 || result.status == 2, "\(result)")
        if result.status == 0 {
            #expect(result.stdout == "no problems in 1 file\n", "\(result)")
        } else {
            #expect(result.stdout == "", "\(result)")
            #expect(result.stderr.contains("store/catalog.yaml"), "\(result)")
        }
    }

    @Test("a symbolic link to its own folder does not report a catalog again per level")
    func symlinkLoop() async throws {
        let workspace = try Workspace()
        try workspace.write("store/shop.yaml", validCatalog(minimumOS: "15.0"))
        try FileManager.default.createSymbolicLink(
            atPath: workspace.url.appendingPathComponent("store/loop").path, withDestinationPath: ".")
        let result = try await workspace.run("validate", "store")
        #expect(!result.timedOut, "\(result)")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.components(separatedBy: "[unquoted-version]").count == 2, "\(result)")
        #expect(result.lastStdoutLine == "1 warning in 1 file", "\(result)")
    }

    @Test("two symbolic links to their own folder do not make the scan exponential")
    func twoSymlinkLoops() async throws {
        let workspace = try Workspace()
        try workspace.write("store/shop.yaml", validCatalog())
        for name in ["a", "b"] {
            try FileManager.default.createSymbolicLink(
                atPath: workspace.url.appendingPathComponent("store/\(name)").path, withDestinationPath: ".")
        }
        let result = try await workspace.run("validate", "store")
        #expect(!result.timedOut, "hung following symbolic links: \(result)")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 1 file\n", "\(result)")
    }

    @Test("a dangling symbolic link in a directory is an error that names its target, not a crash nor a silence")
    func danglingSymlink() async throws {
        let workspace = try Workspace()
        try workspace.write("store/shop.yaml", validCatalog())
        try FileManager.default.createSymbolicLink(
            atPath: workspace.url.appendingPathComponent("store/gone.yaml").path, withDestinationPath: "nowhere.yaml")
        let result = try await workspace.run("validate", "store")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == """
            store/gone.yaml:1:1: error: this symbolic link points at nothing: its target, 'nowhere.yaml', does not exist; restore the file it names, or remove the link [dangling-link]
            1 error in 2 files

            """)
    }

    @Test("a symbolic link beside the catalog it names is validated once, under the catalog's name")
    func linkToACatalogBesideIt() async throws {
        let workspace = try Workspace()
        try workspace.write("store/shop.yaml", validCatalog(minimumOS: "15.0"))
        try workspace.link("store/link.yaml", to: "shop.yaml")
        let result = try await workspace.run("validate", "store")
        #expect(result.status == 0, "\(result)")
        let headers = result.stdout.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(headers.map { $0.prefix { $0 != " " } } == ["store/shop.yaml:4:15:"], "\(result)")
        #expect(result.lastStdoutLine == "1 warning in 1 file")
    }

    @Test("a directory named like a catalog is searched, not read")
    func directoryNamedYAML() async throws {
        let workspace = try Workspace()
        try workspace.write("store.yaml/shop.yaml", validCatalog())
        let result = try await workspace.run("validate", "store.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test("CRLF line endings and a byte order mark are read like any catalog")
    func crlfAndBOM() async throws {
        let workspace = try Workspace()
        let text = validCatalog(minimumOS: "15.0").replacingOccurrences(of: "\n", with: "\r\n")
        try workspace.write("shop.yaml", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            shop.yaml:4:15: warning: write the version in quotes, "15.0": unquoted, other YAML tools read it as a number (and 15.10 as 15.1) [unquoted-version]
                4 |   minimum-os: 15.0
                  |               ^~~~
            1 warning in 1 file

            """)
    }
}
