import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// The located-YAML decoding context every decoder shares (catalogs,
/// scenarios, storekeeper.yml): its readers word a problem the same for each
/// kind of file, with that file's rule ids.
@Suite struct DecodingContextTests {
    /// A vocabulary whose ids name the problem, so that a test sees which one was used.
    static let rules = DecodingRuleIDs(
        unknownKey: "unknown", missingKey: "missing", wrongKind: "kind", malformed: "malformed",
        invalidValue: "invalid", outOfRange: "range", booleanSpelling: "boolean", tooManyProblems: "too-many")

    static func context(limit: Int = 100, bySeverity: Bool = true) -> YAMLDecodingContext {
        YAMLDecodingContext(rules: rules, limit: limit, scope: "a test", countsLeftOutBySeverity: bySeverity)
    }

    static func root(_ text: String) throws -> YAMLNode {
        let parsed = parseYAML(text)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        return try #require(parsed.document?.root)
    }

    static func described(_ context: YAMLDecodingContext) -> [String] {
        context.finished(file: testFile).map { "\($0.location.line):\($0.location.column) \($0.rule): \($0.message)" }
    }

    @Test func unknownKeysGetTheNearestKeyAForeignKeysHintOrTheCommaHint() throws {
        let root = try Self.root("{name: a, nmae: b, files: [x], ok: fine, with comma}\n")
        var context = Self.context()
        let fields = context.fields(of: root, in: "a test", known: ["name", "ok", "paths"])
        #expect(fields.keys.sorted() == ["name", "ok"])
        var foreign = Self.context()
        for pair in root.pairs where pair.key.text == "files" {
            foreign.unknownKey(pair.key, value: pair.value, in: "a test", known: ["paths"],
                               foreignKeys: ["files": ForeignKey("name them under 'paths'", standsFor: "paths")])
        }
        #expect(Self.described(context) == [
            "1:11 unknown: unknown key 'nmae' in a test; did you mean 'name'?",
            "1:20 unknown: unknown key 'files' in a test; expected one of: name, ok, paths",
            "1:42 unknown: unknown key 'with comma' in a test; it has no ':' and no value: in a flow mapping ({...}) a comma ends a plain value, "
                + "so if 'with comma' belongs to the value before it, quote that value (\"like this, with its comma\"); the keys are: name, ok, paths",
        ])
        #expect(Self.described(foreign) == ["1:20 unknown: unknown key 'files' in a test; name them under 'paths'"])
        // The foreign key stands for 'paths', which is then not reported missing.
        foreign.missing("paths", in: root, of: "the test", example: "[x]")
        #expect(foreign.diagnostics.count == 1)
    }

    @Test func anOverLongKeyIsQuotedCutAndGetsNoSuggestion() throws {
        let long = "name" + String(repeating: "x", count: 200)
        var context = Self.context()
        context.unknownKey(try Self.root("? \(long)\n: 1\n").pairs[0].key, in: "a test", known: ["name"])
        let shown = "name" + String(repeating: "x", count: 36) + "…"
        #expect(Self.described(context) == ["1:3 unknown: unknown key '\(shown)' in a test; expected one of: name"])
    }

    @Test func aMissingKeyIsNotReportedWhenItsTypoWas() throws {
        let root = try Self.root("outer:\n  nmae: a\nother: {}\n")
        var context = Self.context()
        let outer = root.pairs[0].value, other = root.pairs[1].value
        _ = context.fields(of: outer, in: "outer", known: ["name"])
        context.missing("name", in: outer, of: "outer", example: "a")
        context.missing("name", in: other, of: "other", example: "a")
        #expect(Self.described(context) == [
            "2:3 unknown: unknown key 'nmae' in outer; did you mean 'name'?",
            "3:8 missing: other is missing 'name'; add `name: a`",
        ])
    }

    @Test func readersReportWithTheVocabularysIds() throws {
        let root = try Self.root("""
            a: [1]
            b:
            c: ""
            d: yes
            e: "true"
            f: maybe
            g: 07
            h: "7"
            i: 11
            j: 99999999999999999999999
            k: blue
            l: {}

            """)
        var context = Self.context()
        let value = { (key: String) in root.pairs.first { $0.key.text == key }?.value ?? root }
        #expect(context.text(value("a"), "'a'", example: "x") == nil)
        #expect(context.text(value("b"), "'b'", example: "x") == nil)
        #expect(context.string(value("c"), "'c'", example: "x") == Located("", at: value("c").range))
        #expect(context.string(value("c"), "'c'", example: "x", nonEmpty: true) == nil)
        #expect(context.bool(value("d"), "'d'") == nil)
        #expect(context.bool(value("e"), "'e'") == nil)
        #expect(context.bool(value("f"), "'f'") == nil)
        #expect(context.integer(value("g"), "'g'", in: 0...10) == nil)
        #expect(context.integer(value("h"), "'h'", in: 0...10) == nil)
        #expect(context.integer(value("i"), "'i'", in: 0...10) == nil)
        #expect(context.integer(value("j"), "'j'", in: 0...10) == nil)
        #expect(context.choice(value("k"), "colour", among: [Colour.red, .green]) == nil)
        #expect(context.expectSequence(value("l"), "'l'", example: "[x]") == false)
        #expect(context.expectMapping(value("l"), "'l'") == true)
        #expect(Self.described(context) == [
            "1:4 kind: 'a' should be a single value such as x, not a list",
            "2:3 kind: 'b' has no value; write one such as x",
            "3:4 malformed: 'c' is empty; write one such as x",
            "4:4 boolean: 'yes' is not a boolean in YAML 1.2 (some tools read it as true, others as text); write true",
            "5:4 kind: 'e' is the text \"true\" in quotes; write true without quotes for a boolean",
            "6:4 malformed: 'f' must be true or false, not 'maybe'",
            "7:4 malformed: 'g' '07' starts with 0, which some YAML tools read as an octal number; write 7",
            "8:4 kind: 'h' is the text \"7\" in quotes; write 7 without quotes for a number",
            "9:4 range: 'i' is 11; it must be from 0 to 10",
            "10:4 range: 'j' '99999999999999999999999' is too large; it must be from 0 to 10",
            "11:4 invalid: 'blue' is not a valid colour (expected one of: red, green)",
            "12:4 kind: 'l' should be a list such as [x], not a mapping",
        ])
    }

    enum Colour: String { case red, green }

    @Test func pastTheCeilingTheLastWordCountsWhatWasLeftOut() throws {
        let node = try Self.root("a: 1\n")
        for bySeverity in [true, false] {
            var context = Self.context(limit: 2, bySeverity: bySeverity)
            for _ in 0..<3 { context.error("x", "an error", at: node) }
            context.report(.warning, "x", "a warning", at: node)
            let last = try #require(context.finished(file: testFile).last)
            #expect(context.diagnostics.count == 2 && context.diagnostics.errorCount == 3)
            #expect(last.rule == "too-many" && last.severity == .error)
            #expect(last.message == (bySeverity
                ? "2 more problems (1 error, 1 warning) were found and not listed (at most 2 are listed for a test); fix these and run again"
                : "2 more problems were found and not listed (at most 2 are listed for a test); fix these and run again"))
        }
    }

    @Test func theTypoIndexFindsTyposInsideARangeOnly() {
        let file = SourceFileTable.id(for: "typos.yaml")
        let other = SourceFileTable.id(for: "other.yaml")
        func range(_ file: UInt32, _ line: UInt32, _ column: UInt32, to endLine: UInt32, _ endColumn: UInt32) -> SourceRange {
            SourceRange(fileID: file, startLine: line, startColumn: column, endLine: endLine, endColumn: endColumn)
        }
        var index = TypoIndex()
        // Recorded out of order too: a mapping's keys may be decoded after a later one's.
        for line: UInt32 in [10, 30, 20] { index.record("price", at: range(file, line, 5, to: line, 10)) }
        index.record("price", at: range(other, 40, 5, to: 40, 10))
        #expect(index.contains("price", in: range(file, 19, 1, to: 21, 1)))
        #expect(index.contains("price", in: range(file, 30, 5, to: 30, 6)))
        #expect(!index.contains("price", in: range(file, 21, 1, to: 30, 5)), "the end is not inside")
        #expect(!index.contains("price", in: range(file, 31, 1, to: 50, 1)), "the other file's typo is not in this one")
        #expect(index.contains("price", in: range(other, 31, 1, to: 50, 1)))
        #expect(!index.contains("type", in: range(file, 1, 1, to: 50, 1)))
    }
}
