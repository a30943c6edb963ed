import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite("Text reporter")
struct TextReporterTests {
    @Test("renders diagnostics, notes, excerpts and the summary without colour")
    func plainGolden() {
        let output = TextReporter(colors: false, sourceLine: Fixture.sources).render(Fixture.report)
        #expect(
            output == """
                Catalogs/game.yaml:4:9: error: duplicate product id 'com.example.coins' [duplicate-id]
                    4 |   - id: com.example.coins
                      |         ^~~~~~~~~~~~~~~~~
                Catalogs/game.yaml:2:9: note: the first definition is here
                    2 |   - id: com.example.coins
                      |         ^
                Catalogs/game.yaml:5:5: error: unknown key 'pric' in a product; did you mean 'price'? [unknown-key]
                    5 |     pric: "0.99"
                      |     ^~~~
                Catalogs/other.yaml:1:1: warning: 'title' is empty [empty-title]
                2 errors, 1 warning in 3 files

                """)
        #expect(!output.contains("\u{1B}"))
    }

    @Test("colours the location, severity, message and caret with ANSI escapes")
    func colorGolden() {
        let output = TextReporter(colors: true, sourceLine: Fixture.sources).render(Fixture.report)
        let esc = "\u{1B}"
        #expect(
            output == """
                \(esc)[1mCatalogs/game.yaml:4:9:\(esc)[0m \(esc)[1;31merror:\(esc)[0m \(esc)[1mduplicate product id 'com.example.coins' [duplicate-id]\(esc)[0m
                    4 |   - id: com.example.coins
                      |         \(esc)[1;32m^~~~~~~~~~~~~~~~~\(esc)[0m
                \(esc)[1mCatalogs/game.yaml:2:9:\(esc)[0m \(esc)[1;36mnote:\(esc)[0m \(esc)[1mthe first definition is here\(esc)[0m
                    2 |   - id: com.example.coins
                      |         \(esc)[1;32m^\(esc)[0m
                \(esc)[1mCatalogs/game.yaml:5:5:\(esc)[0m \(esc)[1;31merror:\(esc)[0m \(esc)[1munknown key 'pric' in a product; did you mean 'price'? [unknown-key]\(esc)[0m
                    5 |     pric: "0.99"
                      |     \(esc)[1;32m^~~~\(esc)[0m
                \(esc)[1mCatalogs/other.yaml:1:1:\(esc)[0m \(esc)[1;35mwarning:\(esc)[0m \(esc)[1m'title' is empty [empty-title]\(esc)[0m
                2 errors, 1 warning in 3 files

                """)
    }

    @Test("prints only the header when the source line is unavailable")
    func missingSourceLine() {
        let diagnostic = Diagnostic(.error, rule: "r", "m", at: Fixture.at("gone.yaml", 7, 3))
        #expect(TextReporter(sourceLine: Fixture.sources).render(diagnostic) == "gone.yaml:7:3: error: m [r]\n")
        // Past the end of a known file, too.
        let pastEnd = Diagnostic(.error, rule: "r", "m", at: Fixture.at(40, 1))
        #expect(
            TextReporter(sourceLine: Fixture.sources).render(pastEnd)
                == "Catalogs/game.yaml:40:1: error: m [r]\n")
        // And with the default provider.
        #expect(TextReporter().render(Fixture.unknownKey).split(separator: "\n").count == 1)
    }

    @Test("keeps tabs before the column so the caret lines up")
    func tabsBeforeColumn() {
        // Columns: \t=1 n=2 a=3 m=4 e=5 :=6 \t=7 "=8 x=9 "=10
        let output = Fixture.reporter(line: "\tname:\t\"x\"").render(Fixture.error(8, to: 11))
        #expect(
            output == """
                file.yaml:1:8: error: m [r]
                    1 | \tname:\t"x"
                      | \t     \t^~~

                """)
    }

    @Test("underlines a range of several columns on one line")
    func rangeOnOneLine() {
        let output = Fixture.reporter(line: "price: twelve").render(Fixture.error(8, to: 14))
        #expect(output.hasSuffix("    1 | price: twelve\n      |        ^~~~~~\n"))
    }

    @Test("puts the caret under the right scalar after non-ASCII text")
    func nonASCII() {
        // U+00E9 é, U+2615 U+FE0F ☕️, U+00DC Ü
        let line = "  title: \"Caf\u{E9} \u{2615}\u{FE0F} \u{DC}ber\""
        #expect(Array(line.unicodeScalars)[18] == "\u{DC}")  // Ü is column 19
        let output = Fixture.reporter(line: line).render(Fixture.error(19, to: 23))
        #expect(
            output == """
                file.yaml:1:19: error: m [r]
                    1 |   title: "Café ☕️ Über"
                      |                   ^~~~

                """)
    }

    @Test("counts a decomposed accent as its own column in the header, and as no width under the line")
    func decomposedAccent() {
        // e + U+0301 is two scalars, so Ü moves to column 20; on a terminal
        // the accent sits on the e and ☕ takes two columns, U+FE0F none.
        let line = "  title: \"Cafe\u{301} \u{2615}\u{FE0F} \u{DC}ber\""
        #expect(Array(line.unicodeScalars)[19] == "\u{DC}")
        let output = Fixture.reporter(line: line).render(Fixture.error(20, to: 21))
        #expect(output.hasPrefix("file.yaml:1:20: error: m [r]\n"))
        #expect(output.hasSuffix("      | " + String(repeating: " ", count: 18) + "^\n"))
    }

    @Test("underlines double-width characters across the columns a terminal gives them")
    func wideCharactersInTheRange() {
        // 月額プラン: five scalars (columns 8 to 12), ten terminal columns.
        let output = Fixture.reporter(line: "title: 月額プラン").render(Fixture.error(8, to: 13))
        #expect(
            output == """
                file.yaml:1:8: error: m [r]
                    1 | title: 月額プラン
                      |        ^~~~~~~~~~

                """)
    }

    @Test("puts the caret after double-width characters where a terminal shows the value")
    func wideCharactersBeforeTheColumn() {
        // `bad` is scalar 23: 8 before the title, 5 in it, 9 after; a terminal
        // shows it at column 28, since each of the title's characters is two wide.
        let line = "{title: 月額プラン, price: bad}"
        #expect(Array(line.unicodeScalars)[22] == "b")
        let output = Fixture.reporter(line: line).render(Fixture.error(23, to: 26))
        #expect(
            output == """
                file.yaml:1:23: error: m [r]
                    1 | {title: 月額プラン, price: bad}
                      |                            ^~~

                """)
    }

    @Test("strips the carriage return of CRLF lines")
    func crlf() {
        let output = Fixture.reporter(line: "    pric: \"0.99\"\r").render(Fixture.error(5, to: 9))
        #expect(output == "file.yaml:1:5: error: m [r]\n    1 |     pric: \"0.99\"\n      |     ^~~~\n")

        let provider = TextReporter.sourceLines(from: ["a.yaml": "one\r\ntwo\r\n"])
        #expect(provider("a.yaml", 1) == "one")
        #expect(provider("a.yaml", 2) == "two")
        #expect(provider("a.yaml", 3) == "")
        #expect(provider("a.yaml", 4) == nil)
        #expect(provider("a.yaml", 0) == nil)
        #expect(provider("b.yaml", 1) == nil)
    }

    @Test("always shows at least one caret")
    func atLeastOneCaret() {
        // A point, an end before the start, and an end in another file.
        let point = Fixture.reporter(line: "abc").render(Fixture.error(2, to: 2))
        #expect(point.hasSuffix("      |  ^\n"))
        let backwards = Fixture.reporter(line: "abc").render(Fixture.error(3, to: 1))
        #expect(backwards.hasSuffix("      |   ^\n"))
        let otherFile = Diagnostic(
            .error, rule: "r", "m",
            at: SourceRange(start: Fixture.at("file.yaml", 1, 2), end: Fixture.at("x.yaml", 1, 3)))
        #expect(Fixture.reporter(line: "abc").render(otherFile).hasSuffix("      |  ^\n"))
    }

    @Test("underlines to the end of the line when the range ends on a later line")
    func multiLineRange() {
        let range = SourceRange(start: Fixture.at("file.yaml", 1, 8), end: Fixture.at("file.yaml", 3, 1))
        let diagnostic = Diagnostic(.error, rule: "r", "m", at: range)
        let output = Fixture.reporter(line: "notes: |").render(diagnostic)
        #expect(output.hasSuffix("    1 | notes: |\n      |        ^\n"))
        let longer = Fixture.reporter(line: "notes: >-").render(diagnostic)
        #expect(longer.hasSuffix("      |        ^~\n"))
    }

    @Test("clamps columns outside the line")
    func clampedColumns() {
        // Past the end: the caret goes just after the last character.
        let past = Fixture.reporter(line: "abc").render(Fixture.error(20, to: 25))
        #expect(past.hasSuffix("    1 | abc\n      |    ^\n"))
        // A range running past the end stops there.
        let long = Fixture.reporter(line: "abc").render(Fixture.error(2, to: 25))
        #expect(long.hasSuffix("      |  ^~\n"))
        // Column 0 counts as column 1.
        let zero = Fixture.reporter(line: "abc").render(Fixture.error(0, to: 0))
        #expect(zero.hasSuffix("      | ^\n"))
    }

    @Test("prints an empty source line without a trailing space")
    func emptyLine() {
        let output = Fixture.reporter(line: "").render(Fixture.error(1, to: 1))
        #expect(output == "file.yaml:1:1: error: m [r]\n    1 |\n      | ^\n")
    }

    @Test("widens the gutter for line numbers of six digits or more")
    func wideGutter() {
        let diagnostic = Diagnostic(.error, rule: "r", "m", at: Fixture.at("big.yaml", 123_456, 2))
        let output = TextReporter { _, _ in "xy" }.render(diagnostic)
        #expect(output == "big.yaml:123456:2: error: m [r]\n123456 | xy\n       |  ^\n")
    }

    @Test("shows control characters from files and messages as visible symbols")
    func controlCharacters() {
        let diagnostic = Diagnostic(
            .error, rule: "r", "key 'a\u{1B}[2J'\nfake.yaml:1:1: error: x",
            at: Fixture.range(1, 5, to: 6, in: "file.yaml"))
        let output = Fixture.reporter(line: "a\u{1B}b\u{7}:\u{85}x").render(diagnostic)
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\u{7}"))
        #expect(!output.unicodeScalars.contains("\u{85}"))
        #expect(
            output == """
                file.yaml:1:5: error: key 'a\u{241B}[2J'\u{240A}fake.yaml:1:1: error: x [r]
                    1 | a\u{241B}b\u{2407}:\u{FFFD}x
                      |     ^

                """)
    }

    @Test("shows bidirectional controls as visible symbols, so a line shows what it holds")
    func bidirectionalControls() {
        let diagnostic = Diagnostic(.warning, rule: "r", "name 'P\u{202E}orP'", at: Fixture.range(1, 8, to: 9, in: "file.yaml"))
        let output = Fixture.reporter(line: "title: \u{202E}\u{2066}x\u{200F}").render(diagnostic)
        for control in ["\u{202E}", "\u{2066}", "\u{200F}"] {
            #expect(!output.unicodeScalars.contains(control.unicodeScalars.first ?? " "))
        }
        #expect(
            output == """
                file.yaml:1:8: warning: name 'P\u{FFFD}orP' [r]
                    1 | title: \u{FFFD}\u{FFFD}x\u{FFFD}
                      |        ^

                """)
    }

    @Test("leaves the rule out when it is empty, and renders note diagnostics with their rule")
    func rules() {
        let noRule = Diagnostic(.warning, rule: "", "odd", at: Fixture.at("a.yaml", 1, 1))
        #expect(TextReporter().render(noRule) == "a.yaml:1:1: warning: odd\n")
        let note = Diagnostic(.note, rule: "info", "fyi", at: Fixture.at("a.yaml", 2, 1))
        #expect(TextReporter().render(note) == "a.yaml:2:1: note: fyi [info]\n")
    }

    @Test("renders an empty report as just the summary")
    func emptyReport() {
        let report = ValidationReport(diagnostics: [], filesChecked: 3)
        #expect(TextReporter(colors: true).render(report) == "no problems in 3 files\n")
    }
}

@Suite("Summary wording")
struct SummaryTests {
    static func diagnostics(errors: Int = 0, warnings: Int = 0, notes: Int = 0) -> [Diagnostic] {
        var result: [Diagnostic] = []
        var line = 0
        for (severity, count) in [(Severity.error, errors), (.warning, warnings), (.note, notes)] {
            for _ in 0..<count {
                line += 1
                result.append(Diagnostic(severity, rule: "r", "m", at: Fixture.at("a.yaml", line, 1)))
            }
        }
        return result
    }

    @Test(
        "lists the non-zero counts with singular and plural nouns",
        arguments: [
            (0, 0, 0, 0, "no problems in 0 files"),
            (0, 0, 0, 1, "no problems in 1 file"),
            (0, 0, 0, 3, "no problems in 3 files"),
            (1, 0, 0, 1, "1 error in 1 file"),
            (2, 0, 0, 1, "2 errors in 1 file"),
            (0, 1, 0, 2, "1 warning in 2 files"),
            (0, 2, 0, 2, "2 warnings in 2 files"),
            (2, 1, 0, 3, "2 errors, 1 warning in 3 files"),
            (1, 2, 1, 1, "1 error, 2 warnings, 1 note in 1 file"),
            (0, 0, 2, 5, "2 notes in 5 files"),
            (1, 0, 3, 4, "1 error, 3 notes in 4 files"),
        ])
    func wording(errors: Int, warnings: Int, notes: Int, files: Int, expected: String) {
        let report = ValidationReport(
            diagnostics: Self.diagnostics(errors: errors, warnings: warnings, notes: notes),
            filesChecked: files)
        #expect(TextReporter.summary(for: report) == expected)
        let lines = TextReporter().render(report).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.suffix(2) == [Substring(expected), ""])
    }

    @Test("does not count the notes attached to a diagnostic")
    func attachedNotes() {
        let report = ValidationReport(diagnostics: [Fixture.duplicateID], filesChecked: 1)
        #expect(Fixture.duplicateID.notes.count == 1)
        #expect(TextReporter.summary(for: report) == "1 error in 1 file")
    }
}

@Suite("Text reporter, streamed")
struct TextReporterStreamingTests {
    @Test("write hands out the report in pieces as it is made, which together are what render returns")
    func piecesMakeTheReport() {
        let reporter = TextReporter(colors: false, sourceLine: Fixture.sources)
        var pieces: [String] = []
        reporter.write(Fixture.report, chunkSize: 1) { pieces.append($0) }
        #expect(pieces.joined() == reporter.render(Fixture.report))
        // One piece per diagnostic (each is over one byte), then the summary alone.
        #expect(pieces.count == Fixture.report.diagnostics.count + 1)
        #expect(pieces.last == "2 errors, 1 warning in 3 files\n")
    }

    @Test("no piece holds much more than the chunk size: a report of many diagnostics is never held whole")
    func piecesAreBounded() {
        let diagnostics = (1...2_000).map { line in
            Diagnostic(.warning, rule: "display-length", "a title over 30 characters", at: SourceLocation(file: "shop.yaml", line: line, column: 3))
        }
        let report = ValidationReport(diagnostics: diagnostics, filesChecked: 1)
        let reporter = TextReporter(colors: false) { _, line in "  title: \(String(repeating: "x", count: 40)) \(line)" }
        var largest = 0
        var total = 0
        reporter.write(report, chunkSize: 4_096) { piece in
            largest = max(largest, piece.utf8.count)
            total += piece.utf8.count
        }
        #expect(total == reporter.render(report).utf8.count)
        #expect(total > 100_000)
        #expect(largest < 4_096 + 200, "a piece is flushed once it reaches the chunk size")
    }
}
