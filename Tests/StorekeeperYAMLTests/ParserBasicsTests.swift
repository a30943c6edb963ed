import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

@Suite struct ParserBasicsTests {
    func parse(_ text: String, limits: YAMLLimits = .default) -> YAMLParseResult {
        YAMLParser.parse(Array(text.utf8), file: "t.yaml", limits: limits)
    }

    @Test func scalarsKeepTextStyleAndPosition() throws {
        let result = parse("a: 0.99\nb: \"0.99\"\nc: [x, 'y']\n")
        let root = try #require(result.document?.root)
        #expect(result.diagnostics.isEmpty)
        #expect(root.kind == .mapping)
        #expect(root.pairs.count == 3)
        let a = try #require(root["a"])
        #expect(a.text == "0.99")
        #expect(a.scalarStyle == .plain)
        #expect(a.location == SourceLocation(file: "t.yaml", line: 1, column: 4))
        let b = try #require(root["b"])
        #expect(b.text == "0.99")
        #expect(b.scalarStyle == .doubleQuoted)
        #expect(b.location.line == 2 && b.location.column == 4)
        let c = try #require(root["c"])
        #expect(c.kind == .sequence && c.isFlow)
        #expect(c.items.map { $0.text } == ["x", "y"])
        #expect(c.items[1].location.column == 8)
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let result = parse("tïtlé: Über\nk: v\n")
        let root = try #require(result.document?.root)
        #expect(root["tïtlé"]?.location.column == 8)
    }

    @Test func duplicateKeyIsReportedAtTheRepeatWithANoteAtTheFirst() throws {
        let result = parse("a: 1\nb: 2\na: 3\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.rule == "duplicate-key")
        #expect(diagnostic.location.line == 3 && diagnostic.location.column == 1)
        #expect(diagnostic.notes.first?.location.line == 1)
        #expect(result.document?.root?["a"]?.text == "1")
    }
}
