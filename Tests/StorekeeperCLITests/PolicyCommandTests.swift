import Foundation
import Testing

/// The policy rules through the command line: configuration found beside the
/// catalog or named, suppression comments, the CI formats, `storekeeper rules`.
@Suite("Policy rules, end to end")
struct PolicyCommandTests {
    /// Valid in form; one policy error: a consumable that claims to be restorable.
    static func restorableCoins(comment: String = "") -> String {
        """
        catalog: shop
        app: {bundle-id: com.example.shop}
        balances: [coins]
        products:
          - id: com.example.coins
            type: consumable
            reference-name: Coins
            price: "0.99"
            localizations: {en-US: {title: Coins, description: A bag of coins}}
            delivery: {model: built-in, grants: {coins: 100}}
            persistence: app-state
        \(comment)    restore: receipt-refresh

        """
    }

    static let errorLine = "shop.yaml:12:14: error: a consumable is not restored (the App Store keeps no record of it once finished); write `restore: none` for com.example.coins [consumable-restore]"

    @Test func aPolicyErrorIsReportedAtTheValueAndFailsTheRun() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins())
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix(Self.errorLine + "\n"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file")
    }

    @Test func noPolicySkipsTheRules() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins())
        let result = try await workspace.run("validate", "--no-policy", "shop.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test func theConfigurationBesideTheCatalogChangesSeverity() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins())
        try workspace.write("storekeeper.yml", "rules:\n  consumable-restore: warning\n")
        let relaxed = try await workspace.run("validate", "shop.yaml")
        #expect(relaxed.status == 0, "\(relaxed)")
        #expect(relaxed.stdout.hasPrefix("shop.yaml:12:14: warning: a consumable is not restored"), "\(relaxed)")
        #expect(relaxed.lastStdoutLine == "1 warning in 2 files", "the configuration counts as a file read")
        let strict = try await workspace.run("validate", "--strict", "shop.yaml")
        #expect(strict.status == 1, "\(strict)")
    }

    @Test func aConfigurationInAParentFolderIsFoundAndOverridesApplyByPath() async throws {
        let workspace = try Workspace()
        try workspace.makeDirectory(".git")
        try workspace.write("Catalogs/shop.yaml", Self.restorableCoins())
        try workspace.write("Catalogs/legacy/shop.yaml", Self.restorableCoins().replacingOccurrences(of: "catalog: shop", with: "catalog: old-shop"))
        try workspace.write("storekeeper.yml", """
            overrides:
              - paths: ["Catalogs/legacy/**"]
                rules: {consumable-restore: off}

            """)
        let result = try await workspace.run("validate", "Catalogs")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("Catalogs/shop.yaml:12:14: error:"), "\(result)")
        #expect(!result.stdout.contains("legacy/shop.yaml"), "\(result)")
    }

    @Test func theSearchStopsAtTheRepositoryRoot() async throws {
        let workspace = try Workspace()
        try workspace.write("storekeeper.yml", "rules:\n  consumable-restore: off\n")
        try workspace.makeDirectory("repo/.git")
        try workspace.write("repo/shop.yaml", Self.restorableCoins())
        let result = try await workspace.run("validate", "repo/shop.yaml")
        #expect(result.status == 1, "a configuration outside the repository does not apply: \(result)")
    }

    @Test func configNamesAFileAndAMissingOneCannotRun() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins())
        try workspace.write("ci/relaxed.yml", "rules:\n  consumable-restore: off\n")
        let named = try await workspace.run("validate", "--config", "ci/relaxed.yml", "shop.yaml")
        #expect(named.status == 0, "\(named)")
        let missing = try await workspace.run("validate", "--config", "ci/nope.yml", "shop.yaml")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr == "storekeeper: error: no such file or directory: ci/nope.yml\n")
    }

    @Test func aBadConfigurationIsReportedWhereItIsWrong() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins())
        try workspace.write("storekeeper.yml", "rules:\n  consumable-restore: warn\n")
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("storekeeper.yml:2:23: error: "), "\(result)")
        #expect(result.stdout.contains("did you mean 'warning'?"), "\(result)")
        #expect(result.stdout.contains("[configuration]"), "\(result)")
    }

    @Test func aPluginStepNamedInTheConfigurationIsKnown() async throws {
        let workspace = try Workspace()
        let catalog = Self.restorableCoins().replacingOccurrences(of: "receipt-refresh", with: "none")
            + "rules:\n  - {name: audit, when: {state: purchased}, add: {after: persist, steps: [audit-log]}}\n"
        try workspace.write("shop.yaml", catalog)
        let unknown = try await workspace.run("validate", "shop.yaml")
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.stdout.contains("[unknown-step]"), "\(unknown)")
        try workspace.write("storekeeper.yml", "steps: [audit-log]\n")
        let known = try await workspace.run("validate", "shop.yaml")
        #expect(known.status == 0, "\(known)")
    }

    @Test func aSuppressionWithAReasonHidesTheDiagnostic() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins(comment: "    # storekeeper:disable-next-line consumable-restore -- the server re-grants on restore\n"))
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test func aSuppressionWithoutAReasonIsAnErrorAndHidesNothing() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins(comment: "    # storekeeper:disable-next-line consumable-restore\n"))
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("[invalid-suppression]"), "\(result)")
        #expect(result.stdout.contains("[consumable-restore]"), "\(result)")
    }

    @Test func aSuppressionThatHidesNothingIsAWarning() async throws {
        let workspace = try Workspace()
        let catalog = Self.restorableCoins(comment: "    # storekeeper:disable-next-line restore-at-launch -- kiosk build\n")
        try workspace.write("shop.yaml", catalog.replacingOccurrences(of: "receipt-refresh", with: "none"))
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("shop.yaml:12:37: warning: "), "\(result)")
        #expect(result.stdout.contains("[unused-suppression]"), "\(result)")
        let strict = try await workspace.run("validate", "--strict", "shop.yaml")
        #expect(strict.status == 1)
    }

    @Test func aFileWithFormatErrorsKeepsItsSuppressionsAndAbsenceRulesQuiet() async throws {
        // The product the suppression is for has a bad price, so it is left out of
        // the catalog: its suppression is not "unused", and the group it was the
        // only subscription of is not "empty".
        let workspace = try Workspace()
        try workspace.write("shop.yaml", """
            catalog: shop
            app: {bundle-id: com.example.shop}
            features: [pro]
            groups: {premium: {name: Premium}}
            products:
              - id: com.example.monthly
                type: auto-renewable-subscription
                reference-name: Monthly
                price: "3.999"
                group: premium
                period: P1M
                localizations: {en-US: {title: Monthly, description: Every month}}
                delivery: {model: built-in, unlocks: [pro]}
                persistence: receipt
                # storekeeper:disable-next-line restore-at-launch -- the kiosk build restores at launch
                restore: {policy: receipt-refresh, trigger: launch}

            """)
        let result = try await workspace.run("validate", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("[invalid-price]"), "\(result)")
        #expect(!result.stdout.contains("[unused-suppression]"), "\(result)")
        #expect(!result.stdout.contains("[empty-group]"), "\(result)")
        #expect(result.lastStdoutLine == "1 error in 1 file", "\(result)")
    }

    @Test func aStorekeeperYmlThatIsNotAFileCannotRun() async throws {
        let workspace = try Workspace()
        try workspace.makeDirectory(".git")
        try workspace.write("storekeeper.yml", "rules:\n  consumable-restore: off\n")
        try workspace.write("sub/shop.yaml", Self.restorableCoins())
        try workspace.makeDirectory("sub/storekeeper.yml")
        let result = try await workspace.run("validate", "sub/shop.yaml")
        #expect(result.status == 2, "a folder named storekeeper.yml is reported, not passed over for the parent's file: \(result)")
        #expect(result.stderr == "storekeeper: error: cannot read sub/storekeeper.yml: it is not a regular file\n", "\(result)")
        #expect(result.stdout == "")
    }

    @Test func githubFormatWritesWorkflowCommands() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins())
        let result = try await workspace.run("validate", "--format", "github", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == """
            ::error file=shop.yaml,line=12,col=14,endLine=12,endColumn=29,title=consumable-restore::a consumable is not restored (the App Store keeps no record of it once finished); write `restore: none` for com.example.coins
            1 error in 1 file

            """, "\(result)")
    }

    @Test func sarifFormatNamesTheRuleAndTheRegion() async throws {
        let workspace = try Workspace()
        try workspace.write("shop.yaml", Self.restorableCoins())
        let result = try await workspace.run("validate", "--format", "sarif", "shop.yaml")
        #expect(result.status == 1, "\(result)")
        let log = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["consumable-restore"])
        let help = try #require((rules[0]["fullDescription"] as? [String: Any])?["text"] as? String)
        #expect(help.contains("Restoring Purchased Products"), "the rationale cites the guide")
        let result0 = try #require((run["results"] as? [[String: Any]])?.first)
        #expect(result0["ruleId"] as? String == "consumable-restore")
        #expect(result0["level"] as? String == "error")
        let location = try #require(((result0["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "shop.yaml")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 12 && region["startColumn"] as? Int == 14)
    }

    @Test func rulesListsEveryRuleAndShowsOne() async throws {
        let workspace = try Workspace()
        let list = try await workspace.run("rules")
        #expect(list.status == 0, "\(list)")
        let line = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix("consumable-restore ") })
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).prefix(2) == ["consumable-restore", "error"], "\(list)")
        #expect(line.hasSuffix("  A consumable's restore policy must be `none`."), "\(list)")
        #expect(list.stdout.split(separator: "\n").count >= 25)
        let one = try await workspace.run("rules", "consumable-restore")
        #expect(one.status == 0)
        #expect(one.stdout.hasPrefix("consumable-restore (error)\nA consumable's restore policy must be `none`.\n"), "\(one)")
        #expect(one.stdout.contains("Reported:\n") && one.stdout.contains("Accepted:\n"))
        let typo = try await workspace.run("rules", "consumable-restor")
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean 'consumable-restore'?"), "\(typo)")
    }

    @Test func rulesMarkdownIsDocsRules() async throws {
        let workspace = try Workspace()
        let markdown = try await workspace.run("rules", "--format", "markdown")
        let docs = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(markdown.status == 0)
        #expect(markdown.stdout == docs, "regenerate: swift run storekeeper rules --format markdown > docs/rules.md")
    }
}
