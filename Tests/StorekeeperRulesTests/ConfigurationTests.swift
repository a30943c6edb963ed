import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPlatform
@testable import StorekeeperRules
import StorekeeperYAML
import Testing

/// `storekeeper.yml`: reading it, the problems it can have (each located
/// and with a fix), severities and `off` applied to diagnostics, overrides
/// by path pattern, and finding the file above a catalog.
@Suite struct ConfigurationTests {
    static let policyRules: Set<String> = ["restore-at-launch", "display-length", "consumable-persistence"]
    static let configPath = "/project/storekeeper.yml"

    func load(_ text: String, path: String = ConfigurationTests.configPath) -> (configuration: RuleConfiguration, diagnostics: [Diagnostic]) {
        RuleConfiguration.load(path: path, bytes: Array(text.utf8), policyRules: Self.policyRules)
    }

    /// A rule's diagnostic at line 3 of a file, with the rule's default severity `warning`.
    func diagnostic(_ rule: String, in file: String, severity: Severity = .warning) -> Diagnostic {
        Diagnostic(severity, rule: rule, "a problem", at: SourceLocation(file: file, line: 3, column: 5))
    }

    /// The configured severity of a rule's diagnostic in a file, or nil when it is off.
    func severity(_ configuration: RuleConfiguration, _ rule: String, in file: String) -> Severity? {
        configuration.apply(to: diagnostic(rule, in: file))?.severity
    }

    /// The one diagnostic expected, checked for its id, place and message parts.
    func expectOne(
        _ diagnostics: [Diagnostic], rule: String = ConfigurationRuleID.configuration, severity: Severity = .error,
        line: Int, column: Int, _ parts: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(diagnostics.count == 1, "\(diagnostics.map(\.message))", sourceLocation: sourceLocation)
        guard let found = diagnostics.first else { return }
        #expect(found.rule == rule, sourceLocation: sourceLocation)
        #expect(found.severity == severity, sourceLocation: sourceLocation)
        #expect(found.location.file == Self.configPath, sourceLocation: sourceLocation)
        #expect((found.location.line, found.location.column) == (line, column), "\(found.location)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(found.message.contains(part), "\(found.message) should contain \(part)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Reading

    @Test func noFileLeavesEveryRuleAtItsDefault() {
        let configuration = RuleConfiguration()
        #expect(configuration.path == nil)
        #expect(configuration.extraSteps.isEmpty)
        #expect(configuration.apply(to: diagnostic("restore-at-launch", in: "a.yaml")) == diagnostic("restore-at-launch", in: "a.yaml"))
    }

    @Test func anEmptyFileOrOneOfCommentsIsAnEmptyConfiguration() {
        for text in ["", "# nothing configured yet\n", "rules:\nsteps:\noverrides:\n"] {
            let (configuration, diagnostics) = load(text)
            #expect(diagnostics.isEmpty, "\(text): \(diagnostics)")
            #expect(configuration.path == Self.configPath)
            #expect(severity(configuration, "restore-at-launch", in: "/project/a.yaml") == .warning)
        }
    }

    @Test func severitiesChangeAndOffDropsTheDiagnostic() {
        let (configuration, diagnostics) = load("""
            rules:
              restore-at-launch: off
              display-length: error
              consumable-persistence: note
            """)
        #expect(diagnostics.isEmpty)
        #expect(severity(configuration, "restore-at-launch", in: "/project/a.yaml") == nil)
        #expect(severity(configuration, "display-length", in: "/project/a.yaml") == .error)
        #expect(severity(configuration, "consumable-persistence", in: "/elsewhere/b.yaml") == .note)
        // Everything but the severity is kept.
        let applied = configuration.apply(to: diagnostic("display-length", in: "/project/a.yaml"))
        #expect(applied?.message == "a problem" && applied?.location.line == 3 && applied?.rule == "display-length")
    }

    @Test func diagnosticsOfOtherIdsPassUnchanged() {
        let (configuration, _) = load("rules: {restore-at-launch: off}\noverrides: [{paths: ['**'], rules: {display-length: off}}]\n")
        for rule in ["unknown-key", "yaml-syntax", "invalid-suppression"] {
            let original = diagnostic(rule, in: "/project/a.yaml", severity: .error)
            #expect(configuration.apply(to: original) == original)
        }
    }

    @Test func theRealRegistryIsUsedByDefault() {
        let (configuration, diagnostics) = RuleConfiguration.load(
            path: Self.configPath, bytes: Array("rules:\n  consumable-restore: warning\n  display-lenght: off\n".utf8))
        #expect(RuleConfiguration.policyRuleIDs.contains("consumable-restore"))
        #expect(severity(configuration, "consumable-restore", in: "/project/a.yaml") == .warning)
        #expect(diagnostics.allSatisfy { $0.rule == ConfigurationRuleID.configuration })
        #expect(diagnostics.count == 1)
    }

    @Test func extraStepsAreRead() {
        let (configuration, diagnostics) = load("steps: [audit-log, sync.cloud, Notify_2]\n")
        #expect(diagnostics.isEmpty)
        #expect(configuration.extraSteps == ["audit-log", "sync.cloud", "Notify_2"])
    }

    // MARK: Problems

    @Test func anUnknownTopLevelKeySuggestsTheNearest() {
        expectOne(load("rules: {}\nrule:\n  display-length: off\n").diagnostics, line: 2, column: 1, "unknown key 'rule'", "did you mean 'rules'?")
        expectOne(load("plugins: [x]\n").diagnostics, line: 1, column: 1, "unknown key 'plugins'", "expected one of: rules, steps, overrides")
        expectOne(load("disabled_rules: [display-length]\n").diagnostics, line: 1, column: 1, "'disabled_rules'", "`rules: {restore-at-launch: off}`")
    }

    @Test func aFormatCheckCannotBeConfigured() {
        // `unknown-step` is one edit from `unknown-key`, but suggesting it would turn off a real policy rule.
        let (_, diagnostics) = RuleConfiguration.load(
            path: Self.configPath, bytes: Array("rules:\n  unknown-key: off\n".utf8), policyRules: Self.policyRules.union(["unknown-step"]))
        expectOne(diagnostics, line: 2, column: 3)
        #expect(diagnostics.first?.message
                == "'unknown-key' is a format check, which cannot be configured: fix the catalog instead (docs/diagnostics.md describes it)")
        // The same with the real registry, which has `unknown-step`.
        let real = RuleConfiguration.load(path: Self.configPath, bytes: Array("rules: {unknown-key: off, yaml-syntax: warning}\n".utf8)).diagnostics
        #expect(RuleConfiguration.policyRuleIDs.contains("unknown-step"))
        #expect(real.map(\.message) == [
            "'unknown-key' is a format check, which cannot be configured: fix the catalog instead (docs/diagnostics.md describes it)",
            "'yaml-syntax' is a format check, which cannot be configured: fix the catalog instead (docs/diagnostics.md describes it)",
        ])
        // Ids that are neither policy rules nor format checks keep the list of rules.
        expectOne(load("rules:\n  unused-suppression: off\n").diagnostics, line: 2, column: 3,
                  "'unused-suppression' is not a policy rule, so it cannot be configured", "consumable-persistence, display-length, restore-at-launch")
    }

    @Test func overLongIdsAndNamesAreQuotedTruncatedWithoutASuggestion() {
        // An id a million characters long: an explicit key, since YAML limits plain keys to 1024.
        let long = "display-length" + String(repeating: "x", count: 1_000_000)
        let shown = "display-length" + String(repeating: "x", count: 26) + "…"
        let rule = load("rules:\n  ? \(long)\n  : off\n").diagnostics
        expectOne(rule, line: 2, column: 5)
        #expect(rule.first?.message == "'\(shown)' is not a policy rule: it is over 100 characters long, and no rule id is")

        let step = load("steps: [\(long)]\n").diagnostics
        expectOne(step, line: 1, column: 9, "the step name '\(shown)' is 1000014 characters long; a step name has at most 64")
        #expect((step.first?.message.count ?? .max) < 200)

        let key = load("? \(long)\n: 1\n").diagnostics
        expectOne(key, line: 1, column: 3, "unknown key '\(shown)' in the configuration; expected one of: rules, steps, overrides")
        #expect((key.first?.message.count ?? .max) < 200)

        let setting = load("rules:\n  display-length: \(long)\n").diagnostics
        expectOne(setting, line: 2, column: 19, "'\(shown)' is not a setting for 'display-length' (write off")
        #expect(setting.first?.message.contains("did you mean") == false)

        let pattern = load("overrides:\n  - paths: [\"\\\\\(long)\"]\n    rules: {}\n").diagnostics
        expectOne(pattern, line: 2, column: 13, "separate folders with '/'")
        #expect((pattern.first?.message.count ?? .max) < 200)

        // Up to 100 characters an id is quoted whole (and still gets its suggestion search).
        let hundred = String(repeating: "a", count: 100)
        expectOne(load("rules:\n  \(hundred): off\n").diagnostics, line: 2, column: 3, "'\(hundred)' is not a policy rule, so it cannot be configured")
    }

    @Test func anUnknownRuleSuggestsThePolicyRuleNearest() {
        let (configuration, diagnostics) = load("rules:\n  display-length: off\n  restore-at-lunch: off\n")
        expectOne(diagnostics, line: 3, column: 3, "'restore-at-lunch' is not a policy rule", "did you mean 'restore-at-launch'?")
        // The rest of the file still applies.
        #expect(severity(configuration, "display-length", in: "/project/a.yaml") == nil)
        #expect(severity(configuration, "restore-at-launch", in: "/project/a.yaml") == .warning)
    }

    @Test func aBadSeveritySuggestsTheRightSpelling() {
        expectOne(load("rules:\n  display-length: warn\n").diagnostics, line: 2, column: 19,
                  "'warn' is not a setting for 'display-length'", "did you mean 'warning'?", "off, note, warning or error")
        expectOne(load("rules:\n  display-length: 2\n").diagnostics, line: 2, column: 19, "did you mean 'error'?")
        expectOne(load("rules:\n  display-length: [error]\n").diagnostics, line: 2, column: 19, "should be one of off, note, warning or error, not a list")
        expectOne(load("rules:\n  display-length:\n").diagnostics, line: 2, column: 18, "has no value")
    }

    @Test func valuesOfTheWrongKindSayWhatToWrite() {
        expectOne(load("rules: [display-length]\n").diagnostics, line: 1, column: 8, "'rules' should be a mapping", "not a list")
        expectOne(load("steps: audit-log\n").diagnostics, line: 1, column: 8, "'steps' should be a list", "[audit-log]")
        expectOne(load("overrides: {paths: [a]}\n").diagnostics, line: 1, column: 12, "'overrides' should be a list")
        expectOne(load("- rules\n").diagnostics, line: 1, column: 1, "should be a mapping", "not a list")
    }

    @Test func badStepNamesAreReported() {
        let diagnostics = load("steps:\n  - 1st-step\n  - audit log\n  - {name: x}\n").diagnostics
        #expect(diagnostics.map { "\($0.location.line):\($0.location.column)" } == ["2:5", "3:5", "4:5"])
        #expect(diagnostics.allSatisfy { $0.rule == ConfigurationRuleID.configuration && $0.severity == .error })
        #expect(diagnostics[0].message.contains("'1st-step' starts with '1'; a step name starts with a letter"))
        #expect(diagnostics[1].message.contains("'audit log' contains a space"))
        #expect(diagnostics[2].message.contains("should be a step name such as audit-log, not a mapping"))
    }

    @Test func builtInAndRepeatedStepsAreWarnings() {
        let (configuration, diagnostics) = load("steps: [audit-log, persist, audit-log]\n")
        #expect(configuration.extraSteps == ["audit-log"])
        #expect(diagnostics.map(\.severity) == [.warning, .warning])
        #expect(diagnostics[0].message.contains("'persist' is a built-in step"))
        #expect(diagnostics[1].message.contains("listed twice") && diagnostics[1].notes.first?.location.column == 9)
        #expect(diagnostics.map(\.location.column) == [20, 29])
    }

    @Test func anEmptyPatternIsAnError() {
        expectOne(load("overrides:\n  - paths: [\"legacy/**\", \"\"]\n    rules: {display-length: off}\n").diagnostics,
                  line: 2, column: 26, "the path pattern '' is empty", "\"legacy/**\"")
        expectOne(load("overrides:\n  - paths: []\n    rules: {display-length: off}\n").diagnostics,
                  line: 2, column: 12, "'paths' is empty")
    }

    @Test func unsupportedPatternSyntaxIsExplained() {
        expectOne(load("overrides:\n  - paths: [\"*.{yaml,yml}\"]\n    rules: {}\n").diagnostics,
                  line: 2, column: 13, "braces are not supported", "\"*.yaml\", \"*.yml\"")
        expectOne(load("overrides:\n  - paths: [\"../other/**\"]\n    rules: {}\n").diagnostics, line: 2, column: 13, "'..'")
        expectOne(load("overrides:\n  - paths: [\"legacy\\\\**\"]\n    rules: {}\n").diagnostics, line: 2, column: 13, "separate folders with '/'")
    }

    @Test func overrideEntriesNeedPathsAndRules() {
        expectOne(load("overrides:\n  - rules: {display-length: off}\n").diagnostics, line: 2, column: 5, "missing 'paths'")
        expectOne(load("overrides:\n  - paths: [a]\n").diagnostics, line: 2, column: 5, "missing 'rules'")
        // ESLint's `files` is pointed to `paths`, and not reported missing again.
        expectOne(load("overrides:\n  - files: [a]\n    rules: {}\n").diagnostics, line: 2, column: 5, "unknown key 'files'", "'paths'")
        expectOne(load("overrides:\n  - paths: [a]\n    rule: {}\n").diagnostics, line: 3, column: 5, "did you mean 'rules'?")
        expectOne(load("overrides:\n  - legacy/**\n").diagnostics, line: 2, column: 5, "should be a mapping with paths and rules")
    }

    /// A key with no value in a flow mapping is most often a value cut at its
    /// comma: said so, as catalogs and scenarios say it (the readers are shared).
    @Test func aKeyCutAtACommaIsSaidSo() {
        expectOne(load("overrides:\n  - {paths: [a], rules: {}, legacy}\n").diagnostics, line: 2, column: 29,
                  "unknown key 'legacy' in an override; it has no ':' and no value", "quote that value", "the keys are: paths, rules")
    }

    /// Past 10,000 problems the rest are counted, not listed, as for a catalog.
    @Test func problemsPastTheCeilingAreCounted() {
        let text = "rules:\n" + (0...DiagnosticCap.limit).map { "  unknown-\($0): off\n" }.joined()
        let diagnostics = load(text).diagnostics
        #expect(diagnostics.count == DiagnosticCap.limit + 1)
        #expect(diagnostics.last?.rule == DiagnosticCap.countingRule)
        #expect(diagnostics.last?.message
            == "1 more problems (1 error) were found and not listed (at most 10000 are listed for a configuration file); fix these and run again")
    }

    @Test func yamlProblemsComeFromTheYAMLLayer() {
        let syntax = load("rules: {display-length: off\n").diagnostics
        #expect(syntax.map(\.rule) == [YAMLRuleID.syntax])
        #expect(syntax.first?.location.file == Self.configPath)
        let duplicate = load("rules:\n  display-length: off\n  display-length: error\n")
        #expect(duplicate.diagnostics.map(\.rule) == [YAMLRuleID.duplicateKey])
        #expect(duplicate.diagnostics.first?.location.line == 3)
    }

    // MARK: Overrides

    @Test func overridesApplyByPatternAndLaterOnesWin() {
        let (configuration, diagnostics) = load("""
            rules:
              display-length: error
            overrides:
              - paths: ["legacy/**", "*.draft.yaml"]
                rules:
                  display-length: warning
                  restore-at-launch: off
              - paths: ["legacy/keep/**"]
                rules:
                  display-length: note
            """)
        #expect(diagnostics.isEmpty)
        #expect(severity(configuration, "display-length", in: "/project/shop.yaml") == .error)
        #expect(severity(configuration, "display-length", in: "/project/legacy/a.yaml") == .warning)
        #expect(severity(configuration, "display-length", in: "/project/legacy/deep/er/a.yaml") == .warning)
        #expect(severity(configuration, "display-length", in: "/project/legacy/keep/a.yaml") == .note)
        #expect(severity(configuration, "restore-at-launch", in: "/project/legacy/keep/a.yaml") == nil)
        #expect(severity(configuration, "restore-at-launch", in: "/project/shop.yaml") == .warning)
        // A pattern without `/` matches the file name in any folder.
        #expect(severity(configuration, "display-length", in: "/project/a/b/shop.draft.yaml") == .warning)
        // Outside the configuration's folder only `rules` apply.
        #expect(severity(configuration, "display-length", in: "/elsewhere/legacy/a.yaml") == .error)
    }

    @Test func patternsMatchLikeGitignore() throws {
        let cases: [(pattern: String, path: String, matches: Bool)] = [
            ("*.yaml", "a.yaml", true),
            ("*.yaml", "x/y/a.yaml", true),             // no `/`: the name, in any folder
            ("*.yaml", "a.yml", false),
            ("legacy/*.yaml", "legacy/a.yaml", true),
            ("legacy/*.yaml", "legacy/sub/a.yaml", false),  // `*` stays within one segment
            ("legacy/*.yaml", "x/legacy/a.yaml", false),    // with a `/`: from the configuration's folder
            ("legacy/**", "legacy/a.yaml", true),
            ("legacy/**", "legacy/a/b/c.yaml", true),
            ("legacy/**", "legacy", false),
            ("**/draft.yaml", "draft.yaml", true),
            ("**/draft.yaml", "a/b/draft.yaml", true),
            ("a/**/b.yaml", "a/b.yaml", true),
            ("a/**/b.yaml", "a/x/y/b.yaml", true),
            ("a/**/b.yaml", "c/a/b.yaml", false),
            ("shop-?.yaml", "shop-1.yaml", true),
            ("shop-?.yaml", "shop-é.yaml", true),       // `?` is one character, not one byte
            ("shop-?.yaml", "shop-12.yaml", false),
            ("legacy", "legacy/a.yaml", true),           // a folder name at any depth
            ("legacy", "x/legacy/a.yaml", true),
            ("legacy/", "legacy/a.yaml", true),
            ("legacy/", "x/legacy", false),              // a trailing `/` matches folders only
            ("/shop.yaml", "shop.yaml", true),           // a leading `/` anchors to the folder
            ("/shop.yaml", "x/shop.yaml", false),
            ("./shop.yaml", "shop.yaml", true),
            ("**", "any/thing.yaml", true),
            ("*", "any/thing.yaml", true),
            ("Shop.yaml", "shop.yaml", false),           // case-sensitive
            // A pattern with a `/` that matches a folder matches everything inside it.
            ("Catalogs/legacy", "Catalogs/legacy/a.yaml", true),
            ("Catalogs/legacy", "Catalogs/legacy/old/b.yaml", true),
            ("Catalogs/legacy", "Catalogs/legacy", true),
            ("Catalogs/legacy", "Catalogs/legacy.yaml", false),
            ("Catalogs/legacy", "Catalogs/legacy2/a.yaml", false),
            ("Catalogs/legacy", "x/Catalogs/legacy/a.yaml", false),
            ("**/old", "Catalogs/legacy/old/b.yaml", true),
            ("**/old", "old/b.yaml", true),
            ("**/old", "Catalogs/older/b.yaml", false),
            ("Catalogs/*/old", "Catalogs/legacy/old/deep/b.yaml", true),
            ("/legacy", "legacy/a.yaml", true),
            ("/legacy", "x/legacy/a.yaml", false),
            ("Catalogs/legacy/", "Catalogs/legacy/old/b.yaml", true),
            ("Catalogs/legacy/", "Catalogs/legacy", false),    // a trailing `/`: folders only
            ("legacy/**/", "legacy/a/b.yaml", true),
            ("legacy/**/", "legacy/b.yaml", false),
        ]
        for test in cases {
            let pattern = try PathPattern.compile(test.pattern).get()
            let path = test.path.split(separator: "/").map { Array($0.unicodeScalars) }
            #expect(pattern.matches(path) == test.matches, "\(test.pattern) against \(test.path)")
        }
    }

    @Test func aFolderPatternAppliesToEveryFileInsideIt() {
        let (configuration, diagnostics) = load("""
            overrides:
              - paths: ["Catalogs/legacy"]
                rules: {display-length: off}
              - paths: ["**/old"]
                rules: {restore-at-launch: note}
            """)
        #expect(diagnostics.isEmpty)
        #expect(severity(configuration, "display-length", in: "/project/Catalogs/legacy/a.yaml") == nil)
        #expect(severity(configuration, "display-length", in: "/project/Catalogs/legacy/old/b.yaml") == nil)
        #expect(severity(configuration, "display-length", in: "/project/Catalogs/shop/a.yaml") == .warning)
        #expect(severity(configuration, "restore-at-launch", in: "/project/Catalogs/legacy/old/b.yaml") == .note)
        #expect(severity(configuration, "restore-at-launch", in: "/project/old/b.yaml") == .note)
        #expect(severity(configuration, "restore-at-launch", in: "/project/Catalogs/legacy/a.yaml") == .warning)
    }

    // MARK: Resolving per file

    @Test func fileSettingsAreTheConfigurationForOneFile() {
        let (configuration, diagnostics) = load("""
            rules:
              display-length: error
              consumable-persistence: note
            overrides:
              - paths: ["legacy/**"]
                rules: {display-length: warning, restore-at-launch: off}
              - paths: ["legacy/keep/**"]
                rules: {display-length: off}
            """)
        #expect(diagnostics.isEmpty)
        let keep = configuration.settings(forFile: "/project/legacy/keep/a.yaml")
        #expect(keep.file == "/project/legacy/keep/a.yaml")
        #expect(keep.apply(to: diagnostic("display-length", in: "/project/legacy/keep/a.yaml")) == nil)
        #expect(keep.apply(to: diagnostic("restore-at-launch", in: "/project/legacy/keep/a.yaml")) == nil)
        #expect(keep.apply(to: diagnostic("consumable-persistence", in: "/project/legacy/keep/a.yaml"))?.severity == .note)
        let legacy = configuration.settings(forFile: "/project/legacy/a.yaml")
        #expect(legacy.apply(to: diagnostic("display-length", in: "/project/legacy/a.yaml"))?.severity == .warning)
        let outside = configuration.settings(forFile: "/elsewhere/legacy/a.yaml")
        #expect(outside.apply(to: diagnostic("display-length", in: "/elsewhere/legacy/a.yaml"))?.severity == .error)
        #expect(outside.apply(to: diagnostic("restore-at-launch", in: "/elsewhere/legacy/a.yaml"))?.severity == .warning)
        // Other ids pass unchanged, and apply(to:) agrees with the file's settings.
        let format = diagnostic("unknown-key", in: "/project/legacy/a.yaml", severity: .error)
        #expect(legacy.apply(to: format) == format)
        for file in ["/project/legacy/keep/a.yaml", "/project/legacy/a.yaml", "/project/a.yaml", "/elsewhere/a.yaml"] {
            let settings = configuration.settings(forFile: file)
            for rule in ["display-length", "restore-at-launch", "consumable-persistence", "unknown-key"] {
                #expect(settings.apply(to: diagnostic(rule, in: file)) == configuration.apply(to: diagnostic(rule, in: file)), "\(rule) in \(file)")
            }
        }
        #expect(RuleConfiguration().settings(forFile: "a.yaml").apply(to: diagnostic("display-length", in: "a.yaml"))?.severity == .warning)
    }

    @Test func oneResolutionPerFileAppliesTheLastMatchingOfManyOverrides() throws {
        // 20,000 overrides with `**` patterns; the last one matches. (Speed is the
        // benchmark's business; this checks the per-file settings are right.)
        var (configuration, _) = load("rules: {display-length: error}\n")
        var overrides: [ConfigurationOverride] = []
        for index in 0..<20_000 {
            let pattern = try PathPattern.compile("**/legacy\(index)/**").get()
            overrides.append(ConfigurationOverride(patterns: [pattern], rules: ["display-length": .off]))
        }
        overrides.append(ConfigurationOverride(patterns: [try PathPattern.compile("**/shop/**").get()], rules: ["display-length": .on(.note)]))
        configuration.overrides = overrides
        configuration.overriddenRules = ["display-length"]

        let file = "/project/Catalogs/deep/shop/catalog.yaml"
        var applied = 0
        let settings = configuration.settings(forFile: file)
        for line in 1...10_000 {
            let found = Diagnostic(.warning, rule: "display-length", "a problem", at: SourceLocation(file: file, line: line, column: 1))
            if settings.apply(to: found)?.severity == .note { applied += 1 }
        }
        #expect(applied == 10_000)
        #expect(configuration.settings(forFile: "/project/legacy19999/a.yaml").apply(to: diagnostic("display-length", in: "/project/legacy19999/a.yaml")) == nil)
    }

    @Test func relativePathsAreComparedInAbsoluteForm() throws {
        let cwd = try #require(WorkingDirectory.current())
        // The configuration named relative to the current directory, the diagnostics both ways.
        let (configuration, _) = load("overrides:\n  - paths: [\"legacy/**\"]\n    rules: {display-length: off}\n",
                                      path: "project/storekeeper.yml")
        #expect(severity(configuration, "display-length", in: "project/legacy/a.yaml") == nil)
        #expect(severity(configuration, "display-length", in: "./project/x/../legacy/a.yaml") == nil)
        #expect(severity(configuration, "display-length", in: cwd + "/project/legacy/a.yaml") == nil)
        #expect(severity(configuration, "display-length", in: "project/a.yaml") == .warning)
        #expect(severity(configuration, "display-length", in: "legacy/a.yaml") == .warning)
    }

    // MARK: Finding the file

    @Test func theLocatorFindsTheNearestFileAbove() {
        let reader = InMemorySourceReader([
            "project/storekeeper.yml": "",
            "project/Catalogs/shop/catalog.yaml": "",
            "project/Catalogs/legacy/storekeeper.yml": "",
            "project/Catalogs/legacy/old.yaml": "",
        ])
        #expect(ConfigurationLocator.find(forCatalogAt: "project/Catalogs/shop/catalog.yaml", reader: reader) == "project/storekeeper.yml")
        #expect(ConfigurationLocator.find(forCatalogAt: "project/Catalogs/legacy/old.yaml", reader: reader) == "project/Catalogs/legacy/storekeeper.yml")
        #expect(ConfigurationLocator.find(forCatalogAt: "./project/Catalogs/../Catalogs/shop/catalog.yaml", reader: reader) == "project/storekeeper.yml")
        let bare = InMemorySourceReader(["storekeeper.yml": "", "catalog.yaml": ""])
        #expect(ConfigurationLocator.find(forCatalogAt: "catalog.yaml", reader: bare) == "storekeeper.yml")
    }

    @Test func theLocatorSearchesTheFileSystemUpToTheRepositoryRoot() throws {
        let root = try TemporaryDirectory()
        try root.write("outer/storekeeper.yml", "")
        try root.write("outer/repo/.git/HEAD", "ref: refs/heads/main\n")
        try root.write("outer/repo/Catalogs/shop/catalog.yaml", "")
        try root.write("outer/plain/Catalogs/catalog.yaml", "")
        try root.write("outer/repo2/.git", "gitdir: ../elsewhere\n")  // a worktree's `.git` file
        try root.write("outer/repo2/storekeeper.yml", "")
        try root.write("outer/repo2/Catalogs/catalog.yaml", "")
        let reader = FileSystemReader()
        // The search stops at the repository's root: the file above it is not used.
        #expect(ConfigurationLocator.find(forCatalogAt: root.path + "/outer/repo/Catalogs/shop/catalog.yaml", reader: reader) == nil)
        // Without a repository it goes on up.
        #expect(ConfigurationLocator.find(forCatalogAt: root.path + "/outer/plain/Catalogs/catalog.yaml", reader: reader)
                == root.path + "/outer/storekeeper.yml")
        // The root's own configuration is found before stopping.
        #expect(ConfigurationLocator.find(forCatalogAt: root.path + "/outer/repo2/Catalogs/catalog.yaml", reader: reader)
                == root.path + "/outer/repo2/storekeeper.yml")
    }

    @Test func aBrokenConfigurationIsFoundNotSkipped() throws {
        let root = try TemporaryDirectory()
        try root.write("storekeeper.yml", "")  // the parent's, which must not apply below
        try root.write("dangling/catalog.yaml", "")
        try root.symlink("dangling/storekeeper.yml", to: "nowhere.yml")
        try root.write("loop/catalog.yaml", "")
        try root.symlink("loop/storekeeper.yml", to: "storekeeper.yml")
        try root.write("folder/storekeeper.yml/inner.txt", "")
        try root.write("folder/catalog.yaml", "")
        try root.write("fifo/catalog.yaml", "")
        try root.fifo("fifo/storekeeper.yml")
        try root.write("plain/catalog.yaml", "")
        let reader = FileSystemReader()
        for folder in ["dangling", "loop", "folder", "fifo"] {
            #expect(ConfigurationLocator.find(forCatalogAt: root.path + "/\(folder)/catalog.yaml", reader: reader)
                    == root.path + "/\(folder)/storekeeper.yml", "\(folder)")
        }
        #expect(reader.kind(of: root.path + "/fifo/storekeeper.yml") == .other)
        #expect(ConfigurationLocator.find(forCatalogAt: root.path + "/plain/catalog.yaml", reader: reader) == root.path + "/storekeeper.yml")
        // A folder of that name in memory too.
        let memory = InMemorySourceReader(["storekeeper.yml": "", "a/storekeeper.yml/x": "", "a/catalog.yaml": ""])
        #expect(ConfigurationLocator.find(forCatalogAt: "a/catalog.yaml", reader: memory) == "a/storekeeper.yml")
    }
}

/// A fresh directory under the system's temporary folder, removed when released.
private final class TemporaryDirectory {
    let path: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        var template = Array("/tmp/storekeeper-config-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else {
            throw Failure(description: "mkdtemp failed: \(errno)")
        }
        path = String(cString: made)
    }

    /// Writes a file, making its folders.
    func write(_ relative: String, _ text: String) throws {
        var folder = path
        for part in relative.split(separator: "/").dropLast() {
            folder += "/" + part
            if mkdir(folder, 0o755) != 0, errno != EEXIST { throw Failure(description: "mkdir \(folder): \(errno)") }
        }
        let file = path + "/" + relative
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "open \(file): \(errno)") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw Failure(description: "write \(file)") }
    }

    /// Makes a symbolic link at `relative` pointing to `target` (as written, relative to the link's folder).
    func symlink(_ relative: String, to target: String) throws {
        guard systemSymlink(target, path + "/" + relative) == 0 else { throw Failure(description: "symlink \(relative): \(errno)") }
    }

    /// Makes a FIFO (a named pipe) at `relative`.
    func fifo(_ relative: String) throws {
        guard mkfifo(path + "/" + relative, 0o644) == 0 else { throw Failure(description: "mkfifo \(relative): \(errno)") }
    }

    deinit {
        remove(path)
    }

    /// Removes a file or a folder with everything in it.
    private func remove(_ path: String) {
        if isLink(path) {
            unlink(path)
        } else if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != ".", name != ".." { remove(path + "/" + name) }
            }
            closedir(directory)
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}

/// Whether `path` is a symbolic link (which `remove` unlinks rather than follows).
private func isLink(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
}

/// `symlink(2)`, named apart from `TemporaryDirectory.symlink`.
private func systemSymlink(_ target: String, _ link: String) -> Int32 {
    #if canImport(Darwin)
    Darwin.symlink(target, link)
    #elseif canImport(Musl)
    Musl.symlink(target, link)
    #else
    Glibc.symlink(target, link)
    #endif
}

/// `write(2)`, named apart from `TemporaryDirectory.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, buffer, count)
    #else
    Glibc.write(descriptor, buffer, count)
    #endif
}
