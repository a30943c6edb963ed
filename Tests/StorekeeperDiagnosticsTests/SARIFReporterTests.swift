import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperTestSupport
import Foundation
import Testing

/// A report with every kind of result the SARIF and GitHub goldens must show:
/// an error with a note, an error, a warning, a note, a path that needs
/// percent-encoding, an absolute path inside the working directory spanning
/// lines, an absolute path outside it, and a rule without metadata.
enum ReportingFixture {
    static let workingDirectory = "/home/runner/work/shop/shop"
    static let encodedFile = "Catalogs/Spring Sale #1/café.yaml"
    static let insideFile = "/home/runner/work/shop/shop/Catalogs/included/coins.yaml"
    static let outsideFile = "/etc/storekeeper/shared catalog.yaml"

    static let priceTierHint = Diagnostic(
        .note, rule: "price-tier-hint", "0.99 is tier 1 in every storefront",
        at: Fixture.range(3, 12, to: 18, in: encodedFile))

    static let consumableRestore = Diagnostic(
        .warning, rule: "consumable-restore", "consumable 'com.example.coins' is offered for restore",
        at: SourceRange(start: Fixture.at(insideFile, 7, 3), end: Fixture.at(insideFile, 9, 1)))

    static let sharedInclude = Diagnostic(
        .error, rule: "include", "cannot include 'shared catalog.yaml': outside the catalog's directory",
        at: Fixture.range(1, 10, to: 31, in: outsideFile))

    static let report = ValidationReport(
        diagnostics: [
            Fixture.unknownKey, Fixture.emptyTitle, Fixture.duplicateID, priceTierHint, consumableRestore,
            sharedInclude,
        ],
        filesChecked: 5)

    /// Metadata for every rule of `report` but `include`, and for one rule
    /// (`server-required`) that has no result.
    static let rules = [
        RuleMetadata(
            id: "unknown-key", summary: "Keys must be ones the catalog format defines.",
            help: "A misspelt key is ignored by the tool that reads the catalog, so its value silently never applies.",
            defaultSeverity: .error),
        RuleMetadata(
            id: "duplicate-id", summary: "Product ids must be unique.",
            help: "The App Store identifies a product by its id alone.\nTwo products with one id cannot both be sold.",
            defaultSeverity: .error),
        RuleMetadata(
            id: "empty-title", summary: "Products need a display title.",
            help: "An empty title shows as a blank row in the purchase sheet.", defaultSeverity: .warning),
        RuleMetadata(
            id: "consumable-restore", summary: "Consumables are not restorable.",
            help: "Consumable purchases are used up; \"Restore Purchases\" must not promise them back.",
            defaultSeverity: .warning),
        RuleMetadata(
            id: "price-tier-hint", summary: "Shows the price tier a price maps to.",
            help: "Informational: the tier that App Store Connect will use for the price.", defaultSeverity: .note),
        RuleMetadata(
            id: "server-required", summary: "Subscriptions need a server.",
            help: "Subscription state must be checked by a server.", defaultSeverity: .error),
    ]

    static let sarif = SARIFReporter(rules: rules, toolVersion: "1.4.0", workingDirectory: workingDirectory)

    /// The text of a golden file in `Goldens/`. With `STOREKEEPER_UPDATE_GOLDENS=1`
    /// in the environment, `actual` is written there first (to regenerate a
    /// golden after a deliberate change; review the diff before committing).
    static func golden(_ name: String, actual: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Goldens").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["STOREKEEPER_UPDATE_GOLDENS"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}

@Suite("SARIF reporter")
struct SARIFReporterTests {
    /// The parsed log of `report`.
    static func parsed(_ report: ValidationReport, reporter: SARIFReporter = ReportingFixture.sarif) throws
        -> [String: Any]
    {
        let parsed = try JSONSerialization.jsonObject(with: Data(reporter.render(report).utf8))
        return try #require(parsed as? [String: Any])
    }

    static func run(_ log: [String: Any]) throws -> [String: Any] {
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        return try #require(runs.first)
    }

    static func driverRules(_ log: [String: Any]) throws -> [[String: Any]] {
        let tool = try #require(try run(log)["tool"] as? [String: Any])
        let driver = try #require(tool["driver"] as? [String: Any])
        return try #require(driver["rules"] as? [[String: Any]])
    }

    static func results(_ log: [String: Any]) throws -> [[String: Any]] {
        try #require(try run(log)["results"] as? [[String: Any]])
    }

    /// A report of one file with `diagnostics`.
    static func report(_ diagnostics: Diagnostic...) -> ValidationReport {
        ValidationReport(diagnostics: diagnostics, filesChecked: 1)
    }

    /// The physical location of `result`'s only location.
    static func physicalLocation(_ result: [String: Any]) throws -> [String: Any] {
        let locations = try #require(result["locations"] as? [[String: Any]])
        #expect(locations.count == 1)
        return try #require(locations.first?["physicalLocation"] as? [String: Any])
    }

    /// The artifact location of the only result of a report with one error in `file`.
    static func artifactLocation(of file: String, workingDirectory: String?) throws -> [String: String] {
        let reporter = SARIFReporter(rules: [], toolVersion: "1", workingDirectory: workingDirectory)
        let log = try parsed(report(Diagnostic(.error, rule: "r", "m", at: Fixture.at(file, 1, 1))), reporter: reporter)
        let physical = try physicalLocation(try #require(try results(log).first))
        return try #require(physical["artifactLocation"] as? [String: String])
    }

    @Test("renders the golden report")
    func golden() throws {
        let actual = ReportingFixture.sarif.render(ReportingFixture.report)
        #expect(actual == (try ReportingFixture.golden("report.sarif", actual: actual)))
    }

    @Test("renders an empty report as a run with no rules and no results")
    func empty() {
        let reporter = SARIFReporter(rules: ReportingFixture.rules, toolVersion: "0.1.0")
        #expect(
            reporter.render(ValidationReport(diagnostics: [], filesChecked: 0)) == """
                {
                  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
                  "version": "2.1.0",
                  "runs": [
                    {
                      "tool": {
                        "driver": {
                          "name": "storekeeper",
                          "version": "0.1.0",
                          "rules": []
                        }
                      },
                      "columnKind": "unicodeCodePoints",
                      "results": []
                    }
                  ]
                }

                """)
    }

    @Test("points each result's rule index at the rule with its id")
    func ruleIndexes() throws {
        let log = try Self.parsed(ReportingFixture.report)
        let rules = try Self.driverRules(log)
        let results = try Self.results(log)
        #expect(results.count == ReportingFixture.report.diagnostics.count)
        for (result, diagnostic) in zip(results, ReportingFixture.report.diagnostics) {
            let id = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(id == diagnostic.rule)
            #expect(rules.indices.contains(index))
            #expect(rules[index]["id"] as? String == id)
        }
    }

    @Test("lists each rule that has results once, in id order, and no other")
    func listedRules() throws {
        let rules = try Self.driverRules(try Self.parsed(ReportingFixture.report))
        #expect(
            rules.compactMap { $0["id"] as? String } == [
                "consumable-restore", "duplicate-id", "empty-title", "include", "price-tier-hint", "unknown-key",
            ])
        #expect(
            rules.compactMap { $0["name"] as? String } == [
                "ConsumableRestore", "DuplicateId", "EmptyTitle", "Include", "PriceTierHint", "UnknownKey",
            ])
        // The metadata's order does not matter.
        let reversed = SARIFReporter(
            rules: ReportingFixture.rules.reversed(), toolVersion: "1.4.0",
            workingDirectory: ReportingFixture.workingDirectory)
        #expect(reversed.render(ReportingFixture.report) == ReportingFixture.sarif.render(ReportingFixture.report))
    }

    @Test("describes a rule from its metadata, and a rule without metadata by its id")
    func descriptions() throws {
        let diagnostics = [
            Diagnostic(.warning, rule: "duplicate-id", "m", at: Fixture.at("a.yaml", 1, 1)),
            Diagnostic(.note, rule: "made-up", "m", at: Fixture.at("a.yaml", 2, 1)),
            Diagnostic(.error, rule: "made-up", "m", at: Fixture.at("a.yaml", 3, 1)),
            Diagnostic(.note, rule: "quiet", "m", at: Fixture.at("a.yaml", 4, 1)),
        ]
        let rules = try Self.driverRules(try Self.parsed(ValidationReport(diagnostics: diagnostics, filesChecked: 1)))
        let byID = Dictionary(
            uniqueKeysWithValues: rules.compactMap { rule in (rule["id"] as? String).map { ($0, rule) } })

        let known = try #require(byID["duplicate-id"])
        #expect((known["shortDescription"] as? [String: String]) == ["text": "Product ids must be unique."])
        let help = "The App Store identifies a product by its id alone.\nTwo products with one id cannot both be sold."
        #expect((known["fullDescription"] as? [String: String]) == ["text": help])
        #expect((known["help"] as? [String: String]) == ["text": help])
        // The metadata's default, not the result's level.
        #expect((known["defaultConfiguration"] as? [String: String]) == ["level": "error"])

        let unknown = try #require(byID["made-up"])
        #expect(unknown["name"] as? String == "MadeUp")
        #expect((unknown["shortDescription"] as? [String: String]) == ["text": "made-up"])
        #expect((unknown["fullDescription"] as? [String: String]) == ["text": "made-up"])
        #expect((unknown["help"] as? [String: String]) == ["text": "made-up"])
        #expect((unknown["defaultConfiguration"] as? [String: String]) == ["level": "error"])
        #expect((byID["quiet"]?["defaultConfiguration"] as? [String: String]) == ["level": "note"])
    }

    @Test("keeps the first of two metadata entries with the same id")
    func duplicateMetadata() throws {
        let first = RuleMetadata(id: "r", summary: "first", help: "first help", defaultSeverity: .error)
        let second = RuleMetadata(id: "r", summary: "second", help: "second help", defaultSeverity: .note)
        let reporter = SARIFReporter(rules: [first, second], toolVersion: "1")
        let report = Self.report(Diagnostic(.error, rule: "r", "m", at: Fixture.at("a.yaml", 1, 1)))
        let rules = try Self.driverRules(try Self.parsed(report, reporter: reporter))
        #expect(rules.count == 1)
        #expect((rules.first?["shortDescription"] as? [String: String]) == ["text": "first"])
    }

    @Test(
        "names a rule by its id in UpperCamelCase",
        arguments: [
            ("consumable-restore", "ConsumableRestore"),
            ("yaml-limit", "YamlLimit"),
            ("x", "X"),
            ("too-many-problems", "TooManyProblems"),
            ("a--b_c.d 2x", "ABCD2x"),
            ("alreadyCamel", "AlreadyCamel"),
        ])
    func ruleNames(id: String, name: String) throws {
        let report = Self.report(Diagnostic(.error, rule: id, "m", at: Fixture.at("a.yaml", 1, 1)))
        #expect(try Self.driverRules(try Self.parsed(report)).first?["name"] as? String == name)
    }

    @Test("maps severities to levels and keeps notes out of the message text")
    func levelsAndMessages() throws {
        let results = try Self.results(try Self.parsed(ReportingFixture.report))
        #expect(
            results.compactMap { $0["level"] as? String }
                == ReportingFixture.report.diagnostics.map(\.severity.rawValue))
        let duplicate = try #require(results.first { $0["ruleId"] as? String == "duplicate-id" })
        #expect((duplicate["message"] as? [String: String]) == ["text": "duplicate product id 'com.example.coins'"])
        let related = try #require(duplicate["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 1)
        #expect(related.first?["id"] as? Int == 1)
        #expect((related.first?["message"] as? [String: String]) == ["text": "the first definition is here"])
        let unknown = try #require(results.first { $0["ruleId"] as? String == "unknown-key" })
        #expect(unknown["relatedLocations"] == nil)
    }

    @Test(
        "turns paths into URI references relative to the working directory where it can",
        arguments: [
            // Relative paths stay relative, percent-encoded, without empty and `.` segments.
            ("Catalogs/game.yaml", "/work/app", "Catalogs/game.yaml", true),
            ("Catalogs/Spring Sale #1/café.yaml", "/work/app", "Catalogs/Spring%20Sale%20%231/caf%C3%A9.yaml", true),
            ("./Catalogs//game.yaml", "/work/app", "Catalogs/game.yaml", true),
            ("../shared/x.yaml", "/work/app", "../shared/x.yaml", true),
            ("a-b.c_d~e/f", "/work/app", "a-b.c_d~e/f", true),
            (
                "q?x=1&y[0]=@!$'()*+,;=%:.yaml", "/work/app",
                "q%3Fx%3D1%26y%5B0%5D%3D%40%21%24%27%28%29%2A%2B%2C%3B%3D%25%3A.yaml", true
            ),
            // Absolute paths inside the working directory become relative to it.
            ("/work/app/Catalogs/game.yaml", "/work/app", "Catalogs/game.yaml", true),
            ("/work/app/Catalogs/game.yaml", "/work/app/", "Catalogs/game.yaml", true),
            ("/work/app/./Catalogs/ü.yaml", "/work/app", "Catalogs/%C3%BC.yaml", true),
            ("/work/app/x.yaml", "/", "work/app/x.yaml", true),
            // Other absolute paths become file URIs.
            ("/work/application/x.yaml", "/work/app", "file:///work/application/x.yaml", false),
            ("/work/app", "/work/app", "file:///work/app", false),
            ("/work/app/../etc/x.yaml", "/work/app", "file:///work/app/../etc/x.yaml", false),
            ("/tmp/shared catalog.yaml", "/work/app", "file:///tmp/shared%20catalog.yaml", false),
        ])
    func paths(path: String, workingDirectory: String, uri: String, relative: Bool) throws {
        let location = try Self.artifactLocation(of: path, workingDirectory: workingDirectory)
        #expect(location["uri"] == uri)
        #expect(location["uriBaseId"] == (relative ? "%SRCROOT%" : nil))
    }

    @Test("declares the working directory as the source root only when it is absolute")
    func sourceRoot() throws {
        let report = Self.report(Fixture.unknownKey)
        for (directory, expected) in [
            ("/home/me/my app", "file:///home/me/my%20app/"),
            ("/home/me/app//", "file:///home/me/app/"),
            ("/", "file:///"),
        ] {
            let reporter = SARIFReporter(rules: [], toolVersion: "1", workingDirectory: directory)
            let run = try Self.run(try Self.parsed(report, reporter: reporter))
            let bases = try #require(run["originalUriBaseIds"] as? [String: [String: String]])
            #expect(bases == ["%SRCROOT%": ["uri": expected]])
        }
        for directory in [nil, ".", "relative/dir"] {
            let reporter = SARIFReporter(rules: [], toolVersion: "1", workingDirectory: directory)
            #expect(try Self.run(try Self.parsed(report, reporter: reporter))["originalUriBaseIds"] == nil)
        }
        // A relative working directory does not make absolute paths relative.
        let location = try Self.artifactLocation(of: "/abs/x.yaml", workingDirectory: "relative/dir")
        #expect(location == ["uri": "file:///abs/x.yaml"])
    }

    @Test("leaves out locations without a file, and regions without a line")
    func missingLocations() throws {
        let noFile = Diagnostic(
            .error, rule: "r", "no file", at: Fixture.at("", 3, 4),
            notes: [
                Diagnostic.Note("nowhere", at: Fixture.at("", 1, 1)),
                Diagnostic.Note("somewhere", at: Fixture.at("a.yaml", 0, 0)),
            ])
        let results = try Self.results(try Self.parsed(Self.report(noFile)))
        let result = try #require(results.first)
        #expect(result["locations"] == nil)
        let related = try #require(result["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 2)
        #expect(related[0]["physicalLocation"] == nil)
        #expect(related[0]["id"] as? Int == 1)
        let physical = try #require(related[1]["physicalLocation"] as? [String: Any])
        #expect(physical["region"] == nil)
        #expect((physical["artifactLocation"] as? [String: String]) == ["uri": "a.yaml", "uriBaseId": "%SRCROOT%"])
    }

    @Test(
        "keeps regions positive and never ending before they start",
        arguments: [
            // start line, start column, end line, end column → the region
            ([4, 9, 4, 26], [4, 9, 4, 26]),
            ([4, 9, 4, 9], [4, 9, 4, 9]),
            ([4, 0, 4, 0], [4, 1, 4, 1]),
            ([4, 9, 4, 3], [4, 9, 4, 9]),
            ([4, 9, 2, 3], [4, 9, 4, 9]),
            ([4, 9, 6, 0], [4, 9, 6, 1]),
            ([4, 9, 6, 2], [4, 9, 6, 2]),
        ])
    func regions(range: [Int], region: [Int]) throws {
        let start = Fixture.at("a.yaml", range[0], range[1])
        let end = Fixture.at("a.yaml", range[2], range[3])
        let diagnostic = Diagnostic(.error, rule: "r", "m", at: SourceRange(start: start, end: end))
        let result = try #require(try Self.results(try Self.parsed(Self.report(diagnostic))).first)
        let actual = try #require(try Self.physicalLocation(result)["region"] as? [String: Int])
        #expect(
            actual == ["startLine": region[0], "startColumn": region[1], "endLine": region[2], "endColumn": region[3]])
    }

    @Test("gives a result without a rule neither a rule id nor an index")
    func emptyRule() throws {
        let log = try Self.parsed(Self.report(Diagnostic(.warning, rule: "", "odd", at: Fixture.at("a.yaml", 1, 1))))
        #expect(try Self.driverRules(log).isEmpty)
        let result = try #require(try Self.results(log).first)
        #expect(result["ruleId"] == nil)
        #expect(result["ruleIndex"] == nil)
        #expect(result["level"] as? String == "warning")
    }

    @Test("renders the same report to the same text every time")
    func deterministic() {
        let first = ReportingFixture.sarif.render(ReportingFixture.report)
        for _ in 0..<5 {
            #expect(ReportingFixture.sarif.render(ReportingFixture.report) == first)
        }
        #expect(first.hasSuffix("}\n"))
    }
}

/// Validation against the official SARIF 2.1.0 schema (`Fixtures/sarif-schema-2.1.0.json`,
/// from oasis-tcs/sarif-spec `Schemata/`, the copy GitHub's codeql-action also
/// validates uploads with) by Python's `jsonschema`, URI and date formats
/// included (checked by grammars of our own, not by optional packages).
@Suite("SARIF schema validation")
struct SARIFSchemaTests {
    static let installHint = "python3 -m pip install jsonschema"

    /// Python that reads the schema (`sys.argv[1]`) and makes `checker`, the
    /// format checker of the schema's dialect, with the formats the SARIF
    /// schema uses (`uri`, `uri-reference`, `date-time`) checked by RFC 3986's
    /// and RFC 3339's grammars written out here: `jsonschema` checks them
    /// only through optional packages, and silently skips them without.
    /// Exits 3 when `jsonschema` is not installed.
    static let formatChecker = #"""
        import calendar, json, re, sys
        try:
            import jsonschema
        except ImportError:
            print("the Python package jsonschema is not installed"); sys.exit(3)

        # RFC 3986's grammar (section 3, collected in appendix A), as regular expressions.
        UNRESERVED = r"A-Za-z0-9\-._~"
        SUB_DELIMS = r"!$&'()*+,;="
        PCT_ENCODED = r"%[0-9A-Fa-f]{2}"
        PCHAR = rf"(?:[{UNRESERVED}{SUB_DELIMS}:@]|{PCT_ENCODED})"
        SEGMENT = rf"{PCHAR}*"
        SEGMENT_NZ = rf"{PCHAR}+"
        SEGMENT_NZ_NC = rf"(?:[{UNRESERVED}{SUB_DELIMS}@]|{PCT_ENCODED})+"
        PATH_ABEMPTY = rf"(?:/{SEGMENT})*"
        PATH_ABSOLUTE = rf"/(?:{SEGMENT_NZ}(?:/{SEGMENT})*)?"
        PATH_NOSCHEME = rf"{SEGMENT_NZ_NC}(?:/{SEGMENT})*"
        PATH_ROOTLESS = rf"{SEGMENT_NZ}(?:/{SEGMENT})*"
        QUERY = rf"(?:{PCHAR}|[/?])*"
        FRAGMENT = QUERY
        DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
        IPV4 = rf"{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}"
        H16 = r"[0-9A-Fa-f]{1,4}"
        LS32 = rf"(?:{H16}:{H16}|{IPV4})"
        IPV6 = "|".join([
            rf"(?:{H16}:){{6}}{LS32}",
            rf"::(?:{H16}:){{5}}{LS32}",
            rf"(?:{H16})?::(?:{H16}:){{4}}{LS32}",
            rf"(?:(?:{H16}:){{0,1}}{H16})?::(?:{H16}:){{3}}{LS32}",
            rf"(?:(?:{H16}:){{0,2}}{H16})?::(?:{H16}:){{2}}{LS32}",
            rf"(?:(?:{H16}:){{0,3}}{H16})?::{H16}:{LS32}",
            rf"(?:(?:{H16}:){{0,4}}{H16})?::{LS32}",
            rf"(?:(?:{H16}:){{0,5}}{H16})?::{H16}",
            rf"(?:(?:{H16}:){{0,6}}{H16})?::",
        ])
        IPV_FUTURE = rf"v[0-9A-Fa-f]+\.[{UNRESERVED}{SUB_DELIMS}:]+"
        IP_LITERAL = rf"\[(?:{IPV6}|{IPV_FUTURE})\]"
        REG_NAME = rf"(?:[{UNRESERVED}{SUB_DELIMS}]|{PCT_ENCODED})*"
        HOST = rf"(?:{IP_LITERAL}|{IPV4}|{REG_NAME})"
        USERINFO = rf"(?:[{UNRESERVED}{SUB_DELIMS}:]|{PCT_ENCODED})*"
        AUTHORITY = rf"(?:{USERINFO}@)?{HOST}(?::[0-9]*)?"
        SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"
        HIER_PART = rf"(?://{AUTHORITY}{PATH_ABEMPTY}|{PATH_ABSOLUTE}|{PATH_ROOTLESS}|)"
        RELATIVE_PART = rf"(?://{AUTHORITY}{PATH_ABEMPTY}|{PATH_ABSOLUTE}|{PATH_NOSCHEME}|)"
        URI = re.compile(rf"{SCHEME}:{HIER_PART}(?:\?{QUERY})?(?:#{FRAGMENT})?")
        RELATIVE_REF = re.compile(rf"{RELATIVE_PART}(?:\?{QUERY})?(?:#{FRAGMENT})?")
        # RFC 3339's date-time (section 5.6), with the calendar's ranges.
        DATE_TIME = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))")

        def is_date_time(text):
            match = DATE_TIME.fullmatch(text)
            if match is None: return False
            year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
            offset_hour, offset_minute = (int(part or 0) for part in match.groups()[6:])
            return (1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1] and hour <= 23 and minute <= 59
                    and second <= 60 and offset_hour <= 23 and offset_minute <= 59)

        with open(sys.argv[1], encoding="utf-8") as f: schema = json.load(f)
        # The validator for the dialect the schema declares (draft 2020-12), with the
        # formats the schema uses checked here rather than by optional packages,
        # which jsonschema silently does without.
        cls = jsonschema.validators.validator_for(schema)
        checker = cls.FORMAT_CHECKER
        checks = {"uri": lambda text: URI.fullmatch(text) is not None,
                  "uri-reference": lambda text: URI.fullmatch(text) is not None or RELATIVE_REF.fullmatch(text) is not None,
                  "date-time": is_date_time}
        for name, check in checks.items():
            checker.checks(name)(lambda instance, check=check: not isinstance(instance, str) or check(instance))

        """#

    /// Exits 0 when the document (`sys.argv[2]`) is valid, 1 (listing the
    /// errors) when it is not, 3 when the validator is not installed.
    static let script = formatChecker + #"""
        with open(sys.argv[2], encoding="utf-8") as f: document = json.load(f)
        errors = list(cls(schema, format_checker=checker).iter_errors(document))
        for error in errors:
            print("/".join(str(part) for part in error.absolute_path) + ": " + error.message)
        sys.exit(1 if errors else 0)
        """#

    /// Prints whether each `[format, value]` of the JSON list `sys.argv[2]`
    /// conforms, by the `checker` the validation uses, as a JSON list of booleans.
    static let conformsScript = formatChecker + #"""
        cases = json.loads(sys.argv[2])
        print(json.dumps([checker.conforms(value, format) for format, value in cases]))
        """#

    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("sarif-schema-2.1.0.json")

    /// Runs the validator on `document`: its exit status and output.
    static func validate(_ document: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeeper-\(UUID().uuidString).sarif")
        try document.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try ChildProcess(
            "/usr/bin/env", ["python3", "-c", script, schemaURL.path, file.path],
            standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
        ).run(timeout: .seconds(300))
        return (run.termination.shellStatus, String(decoding: run.standardOutput + run.standardError, as: UTF8.self))
    }

    /// Whether `checker`, the one the validation uses, accepts each value as its format.
    static func conforms(_ cases: [(format: String, value: String)], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [Bool]? {
        let list = JSONValue.array(cases.map { .array([.string($0.format), .string($0.value)]) })
        let run = try ChildProcess(
            "/usr/bin/env", ["python3", "-c", conformsScript, schemaURL.path, JSONWriter().serialize(list)],
            standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
        ).run(timeout: .seconds(300))
        let status = run.termination.shellStatus
        let output = String(decoding: run.standardOutput + run.standardError, as: UTF8.self)
        if recordMissingValidator(status, output, sourceLocation: sourceLocation) { return nil }
        try #require(status == 0, "\(output)", sourceLocation: sourceLocation)
        guard case .array(let answers) = try JSONParser().parse(Array(run.standardOutput)) else {
            Issue.record("not a list: \(output)", sourceLocation: sourceLocation)
            return nil
        }
        return answers.map { $0 == .bool(true) }
    }

    /// Whether the validator could not run: `python3` (127, from `env`) or its packages (3) are missing.
    /// Records an issue saying how to install them, so that a missing validator fails loudly.
    static func recordMissingValidator(
        _ status: Int32, _ output: String, sourceLocation: Testing.SourceLocation
    ) -> Bool {
        guard status == 3 || status == 127 else { return false }
        Issue.record("\(output)\nInstall the validator: \(installHint)", sourceLocation: sourceLocation)
        return true
    }

    /// Expects `document` to be valid.
    static func expectValid(_ document: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (status, output) = try validate(document)
        if !recordMissingValidator(status, output, sourceLocation: sourceLocation) {
            #expect(status == 0, "the SARIF log does not match the schema:\n\(output)", sourceLocation: sourceLocation)
        }
    }

    /// Expects `document` to be rejected with a message containing `reason`.
    static func expectInvalid(
        _ document: String, reason: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let (status, output) = try validate(document)
        if !recordMissingValidator(status, output, sourceLocation: sourceLocation) {
            #expect(status == 1, "expected a rejection, got status \(status):\n\(output)", sourceLocation: sourceLocation)
            #expect(
                output.contains(reason), "the rejection does not mention \(reason):\n\(output)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("the golden report's log is valid")
    func goldenIsValid() throws {
        try Self.expectValid(ReportingFixture.sarif.render(ReportingFixture.report))
    }

    @Test("an empty report's log is valid")
    func emptyIsValid() throws {
        let reporter = SARIFReporter(rules: [], toolVersion: "0.0.1")
        try Self.expectValid(reporter.render(ValidationReport(diagnostics: [], filesChecked: 0)))
    }

    @Test("a log of odd diagnostics is valid")
    func oddDiagnosticsAreValid() throws {
        let diagnostics = [
            Diagnostic(.error, rule: "", "no rule, no file", at: Fixture.at("", 0, 0)),
            Diagnostic(.warning, rule: "r", "no line", at: Fixture.at("a.yaml", 0, 0)),
            Diagnostic(
                .note, rule: "r", "backwards",
                at: SourceRange(start: Fixture.at("b.yaml", 5, 9), end: Fixture.at("b.yaml", 2, 0)),
                notes: [Diagnostic.Note("no file", at: Fixture.at("", 1, 1))]),
            Diagnostic(
                .error, rule: "r", "control \u{1B}[2J\u{0} and \"quotes\"\n", at: Fixture.at("/abs/ü #?.yaml", 1, 1)),
        ]
        let reporter = SARIFReporter(rules: [], toolVersion: "", workingDirectory: "/work dir/app")
        try Self.expectValid(reporter.render(ValidationReport(diagnostics: diagnostics, filesChecked: 2)))
    }

    @Test("the validator rejects a level SARIF does not define")
    func rejectsUnknownLevel() throws {
        let broken = ReportingFixture.sarif.render(ReportingFixture.report)
            .replacingOccurrences(of: #""level": "warning""#, with: #""level": "fatal""#)
        #expect(broken.contains("fatal"))
        try Self.expectInvalid(broken, reason: "'fatal' is not one of")
    }

    @Test("the validator rejects a URI that is not percent-encoded")
    func rejectsUnencodedURI() throws {
        let broken = ReportingFixture.sarif.render(ReportingFixture.report)
            .replacingOccurrences(of: "Spring%20Sale%20%231", with: "Spring Sale #1")
        #expect(broken.contains("Spring Sale #1"))
        try Self.expectInvalid(broken, reason: "is not a 'uri-reference'")
    }

    /// Values RFC 3986 (`uri`, `uri-reference`) and RFC 3339 (`date-time`) allow.
    static let conforming: [(format: String, value: String)] = [
        ("uri", "https://example.com/a%20b?x=1#top"), ("uri", "urn:isbn:0451450523"), ("uri", "mailto:someone@example.com"),
        ("uri", "http://[::1]:8080/"), ("uri", "http://[2001:db8::7]/c=GB?objectClass?one"), ("uri", "http://192.168.0.1/"),
        ("uri", "file:///work/dir/a.yaml"), ("uri", "http://[v1.fe]/"), ("uri", "https://json.schemastore.org/sarif-2.1.0.json"),
        ("uri-reference", ""), ("uri-reference", "a.yaml"), ("uri-reference", "../x/y"), ("uri-reference", "Spring%20Sale%20%231.yaml"),
        ("uri-reference", "//example.com/path"), ("uri-reference", "?q#f"), ("uri-reference", "file:///etc/a.yaml"),
        ("date-time", "2024-02-29T12:00:00Z"), ("date-time", "2016-12-31T23:59:60.5+01:00"),
    ]

    /// Values they do not: a space, a second `#`, a bad percent-encoding, a scheme or a host that is not one, a date that does not exist.
    static let refused: [(format: String, value: String)] = [
        ("uri", "http://exa mple.com/"), ("uri", "::"), ("uri-reference", "::"), ("uri", "http://[::1"), ("uri", "http://[:::1]/"),
        ("uri", "http://example.com/%zz"), ("uri-reference", "%2"), ("uri-reference", "a b"), ("uri", "http://ex<ample>.com"),
        ("uri-reference", "#frag#again"), ("uri", "http://host:port/"), ("uri", "a.yaml"), ("uri-reference", "1http:x"),
        ("uri", "http://\u{FC}.example/"), ("uri-reference", "Spring Sale #1"),
        ("date-time", "2023-02-29T12:00:00Z"), ("date-time", "2024-01-01 12:00:00Z"), ("date-time", "2024-01-01T24:00:00Z"),
    ]

    @Test("the format checker accepts what RFC 3986 and RFC 3339 allow and refuses what they do not")
    func theFormatCheckerChecks() throws {
        let cases = Self.conforming + Self.refused
        guard let answers = try Self.conforms(cases) else { return }
        try #require(answers.count == cases.count)
        for (index, (format, value)) in cases.enumerated() {
            #expect(answers[index] == (index < Self.conforming.count), "\(format) \"\(value)\"")
        }
    }

    @Test("the validator rejects a URI that is no URI")
    func rejectsABadURI() throws {
        let broken = ReportingFixture.sarif.render(ReportingFixture.report)
            .replacingOccurrences(of: "https://json.schemastore.org/sarif-2.1.0.json", with: "https://json.schema store.org/sarif")
        #expect(broken.contains("schema store"))
        try Self.expectInvalid(broken, reason: "is not a 'uri'")
    }

    @Test("the validator rejects a result without a message")
    func rejectsMissingMessage() throws {
        let broken = ReportingFixture.sarif.render(SARIFReporterTests.report(Fixture.unknownKey))
            .replacingOccurrences(of: #""message": {"#, with: #""note": {"#)
        try Self.expectInvalid(broken, reason: "'message' is a required property")
    }
}
