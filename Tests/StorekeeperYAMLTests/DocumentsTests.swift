import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Exactly one document per file.
@Suite struct DocumentsTests {
    @Test func anEmptyFileHoldsNoDocument() {
        expectRejected(parseYAML(""), rule: YAMLRuleID.documentCount, line: 1, column: 1, mentions: ["empty"])
    }

    @Test(arguments: ["# only\n# comments\n", "\n\n   \n", "\u{FEFF}", "# no newline at the end"])
    func aFileOfNothingButCommentsOrBlanksHoldsNoDocument(text: String) {
        expectRejected(parseYAML(text), rule: YAMLRuleID.documentCount, line: 1, column: 1, mentions: ["no YAML document"])
    }

    @Test func aSecondDocumentIsAnErrorAtItsMarker() {
        expectRejected(
            parseYAML("---\na: 1\n---\nb: 2\n"), rule: YAMLRuleID.documentCount, line: 3, column: 1,
            mentions: ["exactly one YAML document", "second", "include"])
    }

    @Test func aSecondDocumentAfterAnImplicitFirst() {
        expectRejected(parseYAML("a: 1\n---\nb: 2\n"), rule: YAMLRuleID.documentCount, line: 2, column: 1, mentions: ["second"])
    }

    @Test func aSecondDocumentAfterAnEndMarker() {
        expectRejected(parseYAML("a: 1\n...\n---\nb: 2\n"), rule: YAMLRuleID.documentCount, line: 3, column: 1)
    }

    @Test func textAfterAnEndMarkerWithoutANewDocumentIsAnError() {
        expectRejected(
            parseYAML("a: 1\n...\nb: 2\n"), rule: YAMLRuleID.syntax, line: 3, column: 1, mentions: ["after the end of the document"])
    }

    @Test func problemsOfTheFirstDocumentAreKeptWhenASecondStarts() {
        let result = parseYAML("a: 1\na: 2\n---\nb: 2\n")
        #expect(result.document == nil)
        #expect(result.diagnostics.count == 2)
        expectError(result.diagnostics.first, rule: YAMLRuleID.duplicateKey, line: 2, column: 1)
        expectError(result.diagnostics.last, rule: YAMLRuleID.documentCount, line: 3, column: 1)
    }

    @Test(arguments: ["a: 1\n...\n", "a: 1\n...\n# trailing comment\n", "a: 1\n...", "---\na: 1\n...\n"])
    func anEndMarkerFollowedByNothingIsFine(text: String) throws {
        let result = parseYAML(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.document?.root?["a"]?.text == "1")
    }

    @Test func aStartMarkerWithACommentAndADirective() throws {
        let comment = parseYAML("--- # the catalog\na: 1\n")
        #expect(comment.diagnostics.isEmpty)
        #expect(span(try #require(comment.document?.root)) == "2:1-3:1")
        let directive = parseYAML("%YAML 1.1\n---\na: 1\n")
        #expect(directive.diagnostics.isEmpty)
        #expect(directive.document?.root?["a"]?.location == at(3, 4))
    }

    @Test func aStartMarkerWithAnInlineValue() throws {
        let result = parseYAML("--- a\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.text == "a")
        #expect(span(root) == "1:5-1:6")
    }

    @Test func aLoneStartMarkerIsOneNullDocument() throws {
        let result = parseYAML("---\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.isNull)
    }

    @Test func theDocumentKnowsItsFile() throws {
        let result = YAMLParser.parse(Array("a: 1\n".utf8), file: "dir/x.yaml")
        #expect(result.document?.file == "dir/x.yaml")
    }
}
