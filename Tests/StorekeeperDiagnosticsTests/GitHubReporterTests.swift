import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite("GitHub Actions reporter")
struct GitHubReporterTests {
    static func command(_ diagnostic: Diagnostic) -> String {
        GitHubReporter.command(for: diagnostic)
    }

    @Test("renders the golden report")
    func golden() throws {
        let actual = GitHubReporter().render(ReportingFixture.report)
        #expect(actual == (try ReportingFixture.golden("report.github.txt", actual: actual)))
    }

    @Test("renders an error with its notes, a warning and the summary")
    func smallReport() {
        #expect(
            GitHubReporter().render(Fixture.report) == """
                ::error file=Catalogs/game.yaml,line=4,col=9,endLine=4,endColumn=26,title=duplicate-id::duplicate product id 'com.example.coins'%0Anote: Catalogs/game.yaml:2:9: the first definition is here
                ::error file=Catalogs/game.yaml,line=5,col=5,endLine=5,endColumn=9,title=unknown-key::unknown key 'pric' in a product; did you mean 'price'?
                ::warning file=Catalogs/other.yaml,line=1,col=1,endLine=1,endColumn=1,title=empty-title::'title' is empty
                2 errors, 1 warning in 3 files

                """)
    }

    @Test("uses notice for note diagnostics")
    func notice() {
        let note = Diagnostic(.note, rule: "hint", "fyi", at: Fixture.range(2, 3, to: 5, in: "a.yaml"))
        #expect(Self.command(note) == "::notice file=a.yaml,line=2,col=3,endLine=2,endColumn=5,title=hint::fyi")
    }

    @Test("renders an empty report as just the summary")
    func emptyReport() {
        let reporter = GitHubReporter()
        #expect(reporter.render(ValidationReport(diagnostics: [], filesChecked: 0)) == "no problems in 0 files\n")
        #expect(reporter.render(ValidationReport(diagnostics: [], filesChecked: 2)) == "no problems in 2 files\n")
    }

    @Test(
        "escapes command data as @actions/toolkit does",
        arguments: [
            ("plain: text, with separators", "plain: text, with separators"),
            ("100% off", "100%25 off"),
            ("line\nbreak", "line%0Abreak"),
            ("cr\rlf", "cr%0Dlf"),
            ("crlf\r\nend", "crlf%0D%0Aend"),
            ("literal %0A stays literal", "literal %250A stays literal"),
            ("%%", "%25%25"),
            ("Café ☕️ 日本", "Café ☕️ 日本"),
            ("", ""),
        ])
    func dataEscaping(input: String, expected: String) {
        #expect(GitHubReporter.escapeData(input) == expected)
    }

    @Test(
        "escapes property values as @actions/toolkit does",
        arguments: [
            ("Catalogs/game.yaml", "Catalogs/game.yaml"),
            ("dir,with:colon/a.yaml", "dir%2Cwith%3Acolon/a.yaml"),
            ("a%b\rc\nd:e,f", "a%25b%0Dc%0Ad%3Ae%2Cf"),
            ("C:\\catalogs\\x.yaml", "C%3A\\catalogs\\x.yaml"),
            ("%3A", "%253A"),
            ("crlf\r\n", "crlf%0D%0A"),
        ])
    func propertyEscaping(input: String, expected: String) {
        #expect(GitHubReporter.escapeProperty(input) == expected)
    }

    @Test("escapes the file, the title and the message of a command")
    func escapedCommand() {
        let diagnostic = Diagnostic(
            .warning, rule: "odd:rule,id", "50% of\nproducts: a, b",
            at: Fixture.range(3, 1, to: 4, in: "Catalogs/sale,2024:spring.yaml"),
            notes: [Diagnostic.Note("see 100%", at: Fixture.at("x,y.yaml", 1, 2))])
        #expect(
            Self.command(diagnostic)
                == "::warning file=Catalogs/sale%2C2024%3Aspring.yaml,line=3,col=1,endLine=3,endColumn=4,"
                + "title=odd%3Arule%2Cid::50%25 of%0Aproducts: a, b%0Anote: x,y.yaml:1:2: see 100%25")
    }

    @Test("keeps every diagnostic on one line, so a message cannot forge a command")
    func noForgedCommands() {
        let hostile = Diagnostic(
            .note, rule: "r", "harmless\n::error file=evil.yaml,line=1::forged\r\n::warning::also forged",
            at: Fixture.at("a.yaml", 1, 1))
        let report = ValidationReport(diagnostics: [hostile, Fixture.unknownKey], filesChecked: 1)
        let output = GitHubReporter().render(report)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)  // two commands, the summary, and the empty string after the last "\n"
        #expect(lines[0].hasPrefix("::error file=Catalogs/game.yaml,"))
        #expect(lines[1].hasPrefix("::notice file=a.yaml,"))
        #expect(lines[2] == "1 error, 1 note in 1 file")
        #expect(!output.contains("\r"))
    }

    @Test("gives columns only for ranges on one line")
    func multiLineRange() {
        let range = SourceRange(start: Fixture.at("a.yaml", 7, 3), end: Fixture.at("a.yaml", 9, 1))
        #expect(
            Self.command(Diagnostic(.error, rule: "r", "m", at: range))
                == "::error file=a.yaml,line=7,endLine=9,title=r::m")
    }

    @Test("raises columns below 1 and ends no earlier than the start")
    func clampedPositions() {
        #expect(
            Self.command(Diagnostic(.error, rule: "r", "m", at: Fixture.range(2, 0, to: 0, in: "a.yaml")))
                == "::error file=a.yaml,line=2,col=1,endLine=2,endColumn=1,title=r::m")
        #expect(
            Self.command(Diagnostic(.error, rule: "r", "m", at: Fixture.range(2, 9, to: 4, in: "a.yaml")))
                == "::error file=a.yaml,line=2,col=9,endLine=2,endColumn=9,title=r::m")
        let backwards = SourceRange(start: Fixture.at("a.yaml", 5, 9), end: Fixture.at("a.yaml", 3, 2))
        #expect(
            Self.command(Diagnostic(.error, rule: "r", "m", at: backwards))
                == "::error file=a.yaml,line=5,col=9,endLine=5,endColumn=9,title=r::m")
    }

    @Test("leaves out what the diagnostic does not have")
    func missingParts() {
        // No line: the file alone.
        #expect(
            Self.command(Diagnostic(.error, rule: "r", "m", at: Fixture.at("a.yaml", 0, 0)))
                == "::error file=a.yaml,title=r::m")
        // No file: no position either.
        #expect(Self.command(Diagnostic(.warning, rule: "r", "m", at: Fixture.at("", 3, 4))) == "::warning title=r::m")
        // No rule: no title.
        #expect(
            Self.command(Diagnostic(.error, rule: "", "m", at: Fixture.at("a.yaml", 1, 2)))
                == "::error file=a.yaml,line=1,col=2,endLine=1,endColumn=2::m")
        // Nothing at all: no properties, and no space after the command.
        #expect(Self.command(Diagnostic(.note, rule: "", "m", at: Fixture.at("", 0, 0))) == "::notice::m")
        // A note without a file.
        let note = Diagnostic(
            .error, rule: "r", "m", at: Fixture.at("a.yaml", 1, 1),
            notes: [Diagnostic.Note("elsewhere", at: Fixture.at("", 1, 1))])
        #expect(Self.command(note).hasSuffix("::m%0Anote: elsewhere"))
    }
}
