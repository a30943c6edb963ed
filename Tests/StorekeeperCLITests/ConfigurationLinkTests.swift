import Foundation
import Testing

/// A `storekeeper.yml` found beside a catalog follows the include rule: a
/// link that leads out of the folder it was found in (by real path) is
/// refused before it is read, so that a planted link cannot have a secret's
/// lines quoted by a configuration diagnostic. One named with `--config` is
/// the user's choice, and is read.
@Suite("Configuration links")
struct ConfigurationLinkTests {
    static let secret = "db_password: hunter2\n"

    /// A repository whose `shop/storekeeper.yml` is a link to `elsewhere/secrets.yml`.
    static func linkedSecret() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.makeDirectory(".git")
        try workspace.write("elsewhere/secrets.yml", secret)
        try workspace.write("shop/catalog.yaml", validCatalog())
        try workspace.link("shop/storekeeper.yml", to: "../elsewhere/secrets.yml")
        return workspace
    }

    static func expectNoSecret(_ results: [CLIResult], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for result in results {
            #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"), "\(result)", sourceLocation: sourceLocation)
            #expect(!result.stdout.contains("db_password") && !result.stderr.contains("db_password"), "\(result)", sourceLocation: sourceLocation)
        }
    }

    @Test("a storekeeper.yml linked to a file outside the catalog's folder stops the run, never quoted", arguments: ["text", "json", "sarif", "github"])
    func linkedSecretIsRefused(format: String) async throws {
        let workspace = try Self.linkedSecret()
        var results: [CLIResult] = []
        // Searching `shop` itself meets the link as a YAML file that leads out of the searched
        // folder, and stops there before the configuration is looked for.
        let searched = try await workspace.run("validate", "shop", "--format", format)
        #expect(searched.status == 2 && searched.stdout == "", "\(searched)")
        #expect(searched.stderr.hasPrefix("storekeeper: error: cannot read shop/storekeeper.yml: it is a symbolic link to "), "\(searched)")
        results.append(searched)
        for named in ["shop/catalog.yaml", "."] {
            let result = try await workspace.run("validate", named, "--format", format)
            #expect(result.status == 2, "\(named): \(result)")
            #expect(result.stdout == "", "\(named): \(result)")
            #expect(result.stderr.hasPrefix(
                "storekeeper: error: cannot read shop/storekeeper.yml: it leads out of the folder it was found in (shop) through a symbolic link, to "),
                "\(named): \(result)")
            #expect(result.stderr.hasSuffix("/elsewhere/secrets.yml; name it with --config to use it, or replace the link with the file\n"), "\(named): \(result)")
            results.append(result)
        }
        Self.expectNoSecret(results)
    }

    @Test("compile and explain refuse the linked storekeeper.yml the same way")
    func otherCommandsRefuseIt() async throws {
        let workspace = try Self.linkedSecret()
        var results: [CLIResult] = []
        for arguments in [["compile", "shop/catalog.yaml"], ["explain", "shop/catalog.yaml"]] {
            let result = try await CLI.run(arguments, in: workspace.url, environment: CLI.environment())
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains("cannot read shop/storekeeper.yml: it leads out of the folder it was found in (shop)"), "\(arguments): \(result)")
            results.append(result)
        }
        Self.expectNoSecret(results)
    }

    @Test("a storekeeper.yml found in a folder above, through a linked folder that leads out, is refused")
    func linkedFolderAboveIsRefused() async throws {
        let workspace = try Workspace()
        try workspace.makeDirectory(".git")
        try workspace.write("elsewhere/config/storekeeper.yml", Self.secret)
        try workspace.write("Catalogs/shop/catalog.yaml", validCatalog())
        try workspace.link("Catalogs/config", to: "../elsewhere/config")
        try workspace.link("Catalogs/storekeeper.yml", to: "config/storekeeper.yml")
        let result = try await workspace.run("validate", "Catalogs/shop/catalog.yaml")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("cannot read Catalogs/storekeeper.yml: it leads out of the folder it was found in (Catalogs) through a symbolic link"), "\(result)")
        Self.expectNoSecret([result])
    }

    @Test("a link that stays in the folder is followed, and --config may name any file")
    func linksInsideAndNamedFilesAreRead() async throws {
        let workspace = try Workspace()
        try workspace.makeDirectory(".git")
        try workspace.write("shop/catalog.yaml", PolicyCommandTests.restorableCoins())
        let rules = "rules:\n  consumable-restore: off\n"
        try workspace.write("shop/config/rules.yml", rules)
        try workspace.link("shop/storekeeper.yml", to: "config/rules.yml")
        let inside = try await workspace.run("validate", "shop/catalog.yaml")
        #expect(inside.status == 0, "the linked configuration turns the rule off: \(inside)")

        try workspace.write("shared/rules.yml", rules)
        try workspace.write("other/catalog.yaml", PolicyCommandTests.restorableCoins())
        try workspace.link("other/storekeeper.yml", to: "../shared/rules.yml")
        let found = try await workspace.run("validate", "other/catalog.yaml")
        #expect(found.status == 2, "\(found)")
        // Named by the user, the same link is read.
        let named = try await workspace.run("validate", "other/catalog.yaml", "--config", "other/storekeeper.yml")
        #expect(named.status == 0, "\(named)")
    }
}
