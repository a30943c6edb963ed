import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Every node knows its file, its 1-based start line and column (columns count
/// Unicode scalars, not bytes) and its end.
@Suite struct PositionsTests {
    // MARK: Block and flow style

    @Test func blockMappingSequenceAndScalarPositions() throws {
        let result = parseYAML("a: 1\nb:\n  - x\n  - y\nc:\n  d: e\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.kind == .mapping && !root.isFlow)
        // A block collection ends where the next token (here the end of the file) starts.
        #expect(span(root) == "1:1-7:1")
        #expect(root.pairs.map { span($0.key) } == ["1:1-1:2", "2:1-2:2", "5:1-5:2"])
        #expect(span(try #require(root["a"])) == "1:4-1:5")

        let b = try #require(root["b"])
        #expect(b.kind == .sequence && !b.isFlow)
        #expect(span(b) == "3:3-5:1")
        #expect(b.items.map(span) == ["3:5-3:6", "4:5-4:6"])

        let c = try #require(root["c"])
        #expect(c.kind == .mapping && !c.isFlow)
        #expect(span(c) == "6:3-7:1")
        #expect(span(c.pairs[0].key) == "6:3-6:4")
        #expect(span(c.pairs[0].value) == "6:6-6:7")
    }

    @Test func flowSequencePositionsIncludeTheBrackets() throws {
        let result = parseYAML("[a, [b, c], {d: e}]\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.kind == .sequence && root.isFlow)
        #expect(span(root) == "1:1-1:20")
        #expect(root.items.count == 3)
        #expect(span(root.items[0]) == "1:2-1:3")
        let inner = root.items[1]
        #expect(inner.kind == .sequence && inner.isFlow)
        #expect(span(inner) == "1:5-1:11")
        #expect(inner.items.map(span) == ["1:6-1:7", "1:9-1:10"])
        let mapping = root.items[2]
        #expect(mapping.kind == .mapping && mapping.isFlow)
        #expect(span(mapping) == "1:13-1:19")
        #expect(span(mapping.pairs[0].key) == "1:14-1:15")
        #expect(span(mapping.pairs[0].value) == "1:17-1:18")
    }

    @Test func flowMappingPositions() throws {
        let result = parseYAML("{a: 1, b: [2, 3]}\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.kind == .mapping && root.isFlow)
        #expect(span(root) == "1:1-1:18")
        #expect(root.pairs.map { span($0.key) } == ["1:2-1:3", "1:8-1:9"])
        #expect(span(try #require(root["a"])) == "1:5-1:6")
        let b = try #require(root["b"])
        #expect(b.isFlow && span(b) == "1:11-1:17")
        #expect(b.items.map(span) == ["1:12-1:13", "1:15-1:16"])
    }

    @Test func flowCollectionInsideBlockMappingEndsAtItsBracket() throws {
        let result = parseYAML("a: 1\nb:\n  c: 2\n  d: [1, 2]   # comment\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let b = try #require(root["b"])
        #expect(span(b) == "3:3-5:1")
        let d = try #require(b["d"])
        #expect(span(d) == "4:6-4:12")
        #expect(d.items.map(span) == ["4:7-4:8", "4:10-4:11"])
    }

    @Test func nestedBlockSequencesOnOneLine() throws {
        let result = parseYAML("- - a\n  - b\n- c\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(span(root) == "1:1-4:1")
        let inner = root.items[0]
        #expect(inner.kind == .sequence && span(inner) == "1:3-3:1")
        #expect(inner.items.map(span) == ["1:5-1:6", "2:5-2:6"])
        #expect(span(root.items[1]) == "3:3-3:4")
    }

    @Test func emptyListItemIsANullAtItsPlace() throws {
        let result = parseYAML("a:\n  - b\n  -\n  - c\n")
        #expect(result.diagnostics.isEmpty)
        let list = try #require(result.document?.root?["a"])
        #expect(list.items.count == 3)
        #expect(list.items[1].isNull)
        #expect(span(list.items[1]) == "3:4-3:4")
        #expect(span(list.items[2]) == "4:5-4:6")
    }

    @Test func endPositionsOfQuotedAndBlockScalars() throws {
        let result = parseYAML("a: 'single'\nb: \"x\n  y\"\nc: |\n  lit\n  eral\nd: plain text\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        // A quoted scalar's range covers its quotes.
        #expect(span(try #require(root["a"])) == "1:4-1:12")
        // A quoted scalar may span lines.
        let b = try #require(root["b"])
        #expect(span(b) == "2:4-3:5")
        #expect(b.text == "x y")
        // A literal block runs to the start of the next key's line.
        #expect(span(try #require(root["c"])) == "4:4-7:1")
        #expect(span(try #require(root["d"])) == "7:4-7:14")
    }

    @Test func fileWithoutFinalNewlineEndsAtTheLastCharacter() throws {
        let result = parseYAML("a: [1, 2]")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(span(try #require(root["a"])) == "1:4-1:10")
    }

    // MARK: Multi-byte text

    @Test func columnsCountScalarsInBlockStyle() throws {
        let result = parseYAML("- é: 日本\n  😀: x\n")
        #expect(result.diagnostics.isEmpty)
        let item = try #require(result.document?.root?.items.first)
        #expect(item.pairs.count == 2)
        #expect(item.pairs[0].key.text == "é")
        #expect(span(item.pairs[0].key) == "1:3-1:4")
        #expect(span(item.pairs[0].value) == "1:6-1:8")
        #expect(item.pairs[0].value.text == "日本")
        #expect(item.pairs[1].key.text == "😀")
        #expect(span(item.pairs[1].key) == "2:3-2:4")
        #expect(span(item.pairs[1].value) == "2:6-2:7")
    }

    @Test func columnsCountScalarsInFlowStyle() throws {
        let result = parseYAML("😀: [é, 日本]\nx: {y: 😀}\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let list = try #require(root["😀"])
        #expect(span(list) == "1:4-1:11")
        #expect(list.items.map(span) == ["1:5-1:6", "1:8-1:10"])
        let mapping = try #require(root["x"])
        #expect(span(mapping) == "2:4-2:10")
        #expect(span(mapping.pairs[0].key) == "2:5-2:6")
        #expect(span(mapping.pairs[0].value) == "2:8-2:9")
    }

    @Test func aCombiningMarkIsAColumnOfItsOwn() throws {
        // "e" + U+0301 is one character on screen but two Unicode scalars; columns count scalars.
        let result = parseYAML("e\u{301}: x\n")
        #expect(result.diagnostics.isEmpty)
        let pair = try #require(result.document?.root?.pairs.first)
        #expect(pair.key.text?.unicodeScalars.count == 2)
        #expect(span(pair.key) == "1:1-1:3")
        #expect(span(pair.value) == "1:5-1:6")
    }

    @Test func diagnosticsAfterMultiByteTextCountScalars() throws {
        // Duplicate key: the repeat is the 16th scalar of the line.
        let duplicate = parseYAML("- {é: 1, 😀: 2, é: 3}\n")
        let diagnostic = expectOnlyError(duplicate, rule: YAMLRuleID.duplicateKey, line: 1, column: 16, mentions: ["'é'"])
        #expect(diagnostic?.notes.first?.location == at(1, 4))
        // Scanner error (an unclosed quote) after two CJK characters.
        expectRejected(parseYAML("日本: \"x\n"), rule: YAMLRuleID.syntax, line: 1, column: 5, mentions: ["never closed"])
        // Reader error (a byte that is not UTF-8) after two CJK characters.
        expectRejected(
            parseYAML(bytes: Array("日本: ".utf8) + [0xFF, 0x0A]),
            rule: YAMLRuleID.syntax, line: 1, column: 5, mentions: ["UTF-8", "0xFF"])
    }

    // MARK: Line endings and encodings

    @Test func crlfLineEndings() throws {
        let result = parseYAML("a: 1\r\nb: 2\r\nc:\r\n  - x\r\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(span(root) == "1:1-5:1")
        #expect(span(try #require(root["a"])) == "1:4-1:5")
        #expect(span(try #require(root["b"])) == "2:4-2:5")
        let c = try #require(root["c"])
        #expect(span(c) == "4:3-5:1")
        #expect(c.items.map(span) == ["4:5-4:6"])
        #expect(root["b"]?.text == "2")
    }

    @Test func crlfInsideBlockAndQuotedScalarsBecomesLineFeed() throws {
        let result = parseYAML("a: |\r\n  x\r\n  y\r\nb: \"p\r\n  q\"\r\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root["a"]?.text == "x\ny\n")
        #expect(span(try #require(root["a"])) == "1:4-4:1")
        #expect(root["b"]?.text == "p q")
        #expect(span(try #require(root["b"])) == "4:4-5:5")
    }

    @Test func errorsAfterCRLFLinesHaveTheRightLine() {
        expectRejected(parseYAML("a: 1\r\nb: @x\r\n"), rule: YAMLRuleID.syntax, line: 2, column: 4, mentions: ["'@'"])
        expectRejected(
            parseYAML(bytes: Array("a: 1\r\nb: ".utf8) + [0xFF, 0x0D, 0x0A]),
            rule: YAMLRuleID.syntax, line: 2, column: 4, mentions: ["UTF-8", "0xFF"])
    }

    @Test func loneCarriageReturnsEndLines() throws {
        let result = parseYAML("a: 1\rb: 2\r")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.pairs.map { span($0.key) } == ["1:1-1:2", "2:1-2:2"])
        #expect(span(try #require(root["b"])) == "2:4-2:5")
    }

    @Test func scannerErrorInAFileWithLoneCarriageReturnsNamesTheCharacter() {
        // libyaml reports the position right; the message should still name the '@'.
        expectRejected(parseYAML("a: 1\rb: @x\r"), rule: YAMLRuleID.syntax, line: 2, column: 4, mentions: ["'@'"])
    }

    @Test func readerErrorInAFileWithLoneCarriageReturnsIsOnItsLine() {
        // Old Mac line endings: libyaml counts a lone CR as a line break, and the
        // invalid byte is on line 2 column 4, as every other diagnostic in such a file would say.
        expectRejected(
            parseYAML(bytes: Array("a: 1\rb: ".utf8) + [0xFF, 0x0D]),
            rule: YAMLRuleID.syntax, line: 2, column: 4, mentions: ["UTF-8", "0xFF"])
    }

    @Test func utf8ByteOrderMarkTakesNoColumn() throws {
        let result = parseYAML("\u{FEFF}a: 1\nb: 2\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(span(root.pairs[0].key) == "1:1-1:2")
        #expect(span(root.pairs[0].value) == "1:4-1:5")
        #expect(root.pairs[0].key.text == "a")
        #expect(span(root.pairs[1].key) == "2:1-2:2")
    }

    @Test func scannerErrorAfterAByteOrderMark() {
        expectRejected(parseYAML("\u{FEFF}a: @x\n"), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["'@'"])
    }

    @Test func readerErrorAfterAByteOrderMarkIgnoresTheMark() {
        // The BOM is invisible and takes no column (the key `a` is at 1:1), so the byte after "a: " is at 1:4.
        expectRejected(
            parseYAML(bytes: [0xEF, 0xBB, 0xBF] + Array("a: ".utf8) + [0xFF, 0x0A]),
            rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["UTF-8", "0xFF"])
    }

    @Test func utf16LittleEndianWithByteOrderMark() throws {
        let result = parseYAML(bytes: utf16LE("a: é\nb: [x, 日本]\n"))
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.pairs.map { $0.key.text } == ["a", "b"])
        #expect(root["a"]?.text == "é")
        #expect(span(try #require(root["a"])) == "1:4-1:5")
        let b = try #require(root["b"])
        #expect(span(b) == "2:4-2:11")
        #expect(b.items.map { $0.text } == ["x", "日本"])
        #expect(b.items.map(span) == ["2:5-2:6", "2:8-2:10"])
    }

    @Test func utf16BigEndianWithByteOrderMarkAndSurrogatePairs() throws {
        let result = parseYAML(bytes: utf16BE("k: 😀x\nv: [日, b]\n"))
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        // The emoji is a surrogate pair in UTF-16, but one Unicode scalar: one column.
        #expect(root["k"]?.text == "😀x")
        #expect(span(try #require(root["k"])) == "1:4-1:6")
        let v = try #require(root["v"])
        #expect(span(v) == "2:4-2:10")
        #expect(v.items.map(span) == ["2:5-2:6", "2:8-2:9"])
    }

    @Test func utf16ScannerErrorIsAtItsCharacterAndNamesIt() {
        expectRejected(parseYAML(bytes: utf16LE("a: 1\nb: @x\n")), rule: YAMLRuleID.syntax, line: 2, column: 4, mentions: ["'@'"])
    }

    @Test func utf16TabIndentationIsReportedAsATab() {
        expectRejected(parseYAML(bytes: utf16LE("a:\n\t- b\n")), rule: YAMLRuleID.syntax, line: 2, column: 1, mentions: ["tab"])
    }

    @Test func utf16EncodingErrorIsAtItsCharacter() {
        // A lone low surrogate (U+DC00) as the 4th character of line 1.
        let bytes = utf16LE("a: ") + [0x00, 0xDC, 0x0A, 0x00]
        expectRejected(parseYAML(bytes: bytes), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["UTF-16"])
    }

    @Test func utf16NulIsAtItsCharacter() {
        let bytes = utf16LE("a: 1\nb: ") + [0x00, 0x00, 0x0A, 0x00]
        expectRejected(parseYAML(bytes: bytes), rule: YAMLRuleID.syntax, line: 2, column: 4, mentions: ["NUL"])
    }

    // MARK: File names

    @Test func everyLocationCarriesTheFileName() throws {
        let file = "catalogs/shop.yaml"
        let result = YAMLParser.parse(Array("a: 1\nb: [x]\na: 2\n".utf8), file: file)
        let document = try #require(result.document)
        #expect(document.file == file)
        let root = try #require(document.root)
        #expect(root.location.file == file)
        #expect(root.range.end.file == file)
        #expect(root["b"]?.items.first?.location.file == file)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.location == StorekeeperDiagnostics.SourceLocation(file: file, line: 3, column: 1))
        #expect(diagnostic.notes.first?.location == StorekeeperDiagnostics.SourceLocation(file: file, line: 1, column: 1))
    }
}
