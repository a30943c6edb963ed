import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Every libyaml error becomes one diagnostic with its line, column and a plain-language message.
@Suite struct SyntaxErrorsTests {
    // MARK: Indentation

    @Test func aTabIndentingAListItem() {
        expectRejected(parseYAML("a:\n\t- b\n"), rule: YAMLRuleID.syntax, line: 2, column: 1, mentions: ["tab", "spaces"])
    }

    @Test func aTabIndentingAKey() {
        expectRejected(parseYAML("a:\n\tb: 1\n"), rule: YAMLRuleID.syntax, line: 2, column: 1, mentions: ["tab", "spaces"])
        expectRejected(parseYAML("\ta: 1\n"), rule: YAMLRuleID.syntax, line: 1, column: 1, mentions: ["tab"])
    }

    @Test func aKeyDedentedBetweenLevels() {
        let diagnostic = expectRejected(
            parseYAML("a:\n  b: 1\n c: 2\n"), rule: YAMLRuleID.syntax, line: 3, column: 2,
            mentions: ["does not line up", "mapping that starts at 1:1"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 1)])
        #expect(diagnostic?.notes.first?.message.contains("block mapping") == true)
    }

    @Test func aKeyIndentedTooFar() {
        expectRejected(
            parseYAML("a:\n  b: 1\n    c: 2\n"), rule: YAMLRuleID.syntax, line: 3, column: 6,
            mentions: ["unexpected ':'", "indented too far"])
        expectRejected(parseYAML("a: b\n  c: d\n"), rule: YAMLRuleID.syntax, line: 2, column: 4, mentions: ["unexpected ':'"])
    }

    @Test func aListItemDedentedOutOfItsList() {
        expectRejected(parseYAML("a:\n  - 1\n - 2\n"), rule: YAMLRuleID.syntax, line: 3, column: 2, mentions: ["does not line up"])
    }

    @Test func aKeyAfterATopLevelList() {
        let diagnostic = expectRejected(
            parseYAML("- a\nb: c\n"), rule: YAMLRuleID.syntax, line: 2, column: 1, mentions: ["list item", "1:1"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 1)])
    }

    @Test func aListItemAfterAKeyOnTheSameLine() {
        expectRejected(parseYAML("a: - b\n"), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["list item", "cannot start here"])
    }

    @Test func aKeyWithoutAColon() {
        expectRejected(
            parseYAML("a: 1\nkey without colon\nc: 2\n"), rule: YAMLRuleID.syntax, line: 2, column: 1,
            mentions: ["not followed by ':'"])
    }

    @Test func aSecondColonOnALine() {
        expectRejected(
            parseYAML("key: value: other\n"), rule: YAMLRuleID.syntax, line: 1, column: 11,
            mentions: ["unexpected ':'", "must be quoted"])
    }

    // MARK: Quotes and brackets

    @Test func anUnclosedDoubleQuoteIsReportedAtTheOpeningQuote() {
        expectRejected(
            parseYAML("a: 1\nb: \"unclosed\nc: 2\n"), rule: YAMLRuleID.syntax, line: 2, column: 4,
            mentions: ["never closed", "closing quote"])
    }

    @Test func anUnclosedSingleQuoteIsReportedAtTheOpeningQuote() {
        expectRejected(parseYAML("a: 'abc\n"), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["never closed"])
    }

    @Test func anUnclosedFlowSequence() {
        let diagnostic = expectRejected(
            parseYAML("a: [a, b\n"), rule: YAMLRuleID.syntax, line: 2, column: 1,
            mentions: ["',' or ']'", "opened at 1:4"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 4)])
    }

    @Test func anUnclosedFlowMapping() {
        let diagnostic = expectRejected(
            parseYAML("{a: 1\n"), rule: YAMLRuleID.syntax, line: 2, column: 1, mentions: ["',' or '}'", "opened at 1:1"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 1)])
    }

    @Test func anUnclosedFlowSequenceAtTheEndOfAFileWithoutNewlineIsOnTheLastLine() {
        // The file has one line; the end of the file is just after its 8th character.
        expectRejected(parseYAML("a: [a, b"), rule: YAMLRuleID.syntax, line: 1, column: 9, mentions: ["',' or ']'"])
    }

    @Test func anExtraClosingBracket() {
        expectRejected(parseYAML("a: [b, c]]\n"), rule: YAMLRuleID.syntax, line: 1, column: 10)
        expectRejected(parseYAML("a: {b: c}}\n"), rule: YAMLRuleID.syntax, line: 1, column: 10)
    }

    @Test func aMissingValueInAFlowSequence() {
        expectRejected(parseYAML("a: [,]\n"), rule: YAMLRuleID.syntax, line: 1, column: 5, mentions: ["missing"])
    }

    // MARK: Characters

    @Test func anAtSignCannotStartAPlainScalar() {
        expectRejected(parseYAML("a: @foo\n"), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["'@'", "quotes"])
    }

    @Test func aBacktickCannotStartAPlainScalar() {
        expectRejected(parseYAML("a: `x`\n"), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["'`'", "quotes"])
    }

    @Test func anUnknownEscape() {
        let diagnostic = expectRejected(
            parseYAML("a: \"\\q\"\n"), rule: YAMLRuleID.syntax, line: 1, column: 5, mentions: ["unknown escape", "single quotes"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 4)])
        #expect(diagnostic?.notes.first?.message.contains("quoted scalar") == true)
    }

    @Test func emptyAnchorAndAliasNames() {
        let anchor = expectRejected(parseYAML("a: &\n"), rule: YAMLRuleID.syntax, line: 1, column: 5, mentions: ["anchor or alias name"])
        #expect(anchor?.notes.map(\.location) == [at(1, 4)])
        expectRejected(parseYAML("a: *\n"), rule: YAMLRuleID.syntax, line: 1, column: 5, mentions: ["anchor or alias name"])
    }

    @Test func notesNeverRepeatTheErrorsOwnPlace() {
        // A note points somewhere else ("the list opened here"); one at the error itself says nothing new.
        for text in ["a:\n\t- b\n", "a: @foo\n", "a: [,]\n", "\ta: 1\n"] {
            let result = parseYAML(text)
            let diagnostic = result.diagnostics.first
            #expect(diagnostic != nil)
            for note in diagnostic?.notes ?? [] {
                #expect(note.location != diagnostic?.location, "\(text.debugDescription): note '\(note.message)' at the error's own place")
            }
        }
    }

    // MARK: Encoding

    @Test func anInvalidLeadingByte() {
        expectRejected(
            parseYAML(bytes: Array("a: ".utf8) + [0xFF, 0x0A]), rule: YAMLRuleID.syntax, line: 1, column: 4,
            mentions: ["not valid UTF-8", "0xFF", "save it as UTF-8"])
    }

    @Test func aBrokenCharacterIsReportedAtItsLeadByte() {
        // 0xC3 starts a two-byte character; 0x28 '(' cannot continue it. The broken character is at 2:4.
        expectRejected(
            parseYAML(bytes: Array("a: b\nc: ".utf8) + [0xC3, 0x28, 0x0A]), rule: YAMLRuleID.syntax, line: 2, column: 4,
            mentions: ["not valid UTF-8", "0xC3"])
    }

    @Test func aStrayContinuationByteAfterAnAccent() {
        expectRejected(parseYAML(bytes: [0xC3, 0xA9, 0x80, 0x0A]), rule: YAMLRuleID.syntax, line: 1, column: 2, mentions: ["0x80"])
    }

    @Test func aTruncatedCharacter() {
        // Two bytes of a three-byte character, then the line break.
        expectRejected(
            parseYAML(bytes: Array("a: ".utf8) + [0xE6, 0x97, 0x0A]), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["UTF-8", "0xE6"])
    }

    @Test func anEncodedSurrogate() {
        expectRejected(parseYAML(bytes: Array("a: ".utf8) + [0xED, 0xA0, 0x80, 0x0A]), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["U+D800"])
    }

    @Test func anOverlongEncodingNamesTheByteInTheFile() {
        // 0xC0 0x80 is an overlong encoding of U+0000; the file holds 0xC0, not 0xFF.
        let diagnostic = expectRejected(
            parseYAML(bytes: Array("a: ".utf8) + [0xC0, 0x80, 0x0A]), rule: YAMLRuleID.syntax, line: 1, column: 4,
            mentions: ["UTF-8", "0xC0"])
        #expect(diagnostic?.message.contains("0xFF") == false)
    }

    @Test func aNulByteInTheMiddleOfLineThree() {
        expectRejected(
            parseYAML(bytes: Array("a: 1\nb: 2\nc: x".utf8) + [0x00] + Array("y\n".utf8)), rule: YAMLRuleID.syntax,
            line: 3, column: 5, mentions: ["NUL", "U+0000"])
    }

    @Test func controlCharacters() {
        expectRejected(parseYAML("a: b\u{01}c\n"), rule: YAMLRuleID.syntax, line: 1, column: 5, mentions: ["U+0001", "\\u0001"])
        expectRejected(parseYAML("a: \u{7F}\n"), rule: YAMLRuleID.syntax, line: 1, column: 4, mentions: ["U+007F"])
    }

    @Test(arguments: [
        (Array(UInt8.min...UInt8.max), 1, 1, "NUL"),
        (Array(UInt8(1)...UInt8.max), 1, 1, "U+0001"),
        // Descending from 0xFD (0xFF 0xFE would be a UTF-16 byte order mark).
        (Array((UInt8.min...UInt8(0xFD)).reversed()), 1, 1, "0xFD"),
        (Array("a: ok\n".utf8) + Array(UInt8.min...UInt8.max), 2, 1, "NUL"),
        (Array("a: ok\n".utf8) + Array(UInt8(0x80)...UInt8.max), 2, 1, "0x80"),
    ])
    func binaryJunkIsExactlyOneSyntaxError(bytes: [UInt8], line: Int, column: Int, word: String) {
        expectRejected(parseYAML(bytes: bytes), rule: YAMLRuleID.syntax, line: line, column: column, mentions: [word])
    }

    @Test func aBinaryFileWithManyProblemsStillGivesOneError() {
        // A pseudo-random 64 KiB blob (a fixed linear congruential sequence).
        var state: UInt32 = 12345
        let bytes = (0..<65_536).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        let result = parseYAML(bytes: bytes)
        #expect(result.document == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.rule == YAMLRuleID.syntax)
        #expect(result.diagnostics.first?.location.line == 1)
    }
}
