#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StorekeeperCatalog
import StorekeeperDiagnostics
import StorekeeperYAML
@testable import StorekeeperRules
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
        expectOne(load("rules:\n  unknown-key: off\n").diagnostics, line: 2, column: 3,
                  "'unknown-key' is not a policy rule", "format checks", "display-length")
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
        ]
        for test in cases {
            let pattern = try PathPattern.compile(test.pattern).get()
            let path = test.path.split(separator: "/").map { Array($0.unicodeScalars) }
            #expect(pattern.matches(path) == test.matches, "\(test.pattern) against \(test.path)")
        }
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

    deinit {
        remove(path)
    }

    /// Removes a file or a folder with everything in it.
    private func remove(_ path: String) {
        if let directory = opendir(path) {
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
