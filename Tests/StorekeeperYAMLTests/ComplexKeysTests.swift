import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Keys must be scalars.
@Suite struct ComplexKeysTests {
    @Test func aListAsAnExplicitKey() throws {
        let result = parseYAML("? [a, b]\n: c\nd: e\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.complexKey, line: 1, column: 3, mentions: ["single value", "not a list"])
        #expect(diagnostic.map { span($0.range) } == "1:3-1:9")
        // The document is still read; the bad pair is left out.
        let root = try #require(result.document?.root)
        #expect(root.pairs.map { $0.key.text } == ["d"])
    }

    @Test func aMappingAsAnExplicitKey() {
        let result = parseYAML("? {a: 1}\n: x\n")
        expectOnlyError(result, rule: YAMLRuleID.complexKey, line: 1, column: 3, mentions: ["not a mapping"])
        #expect(result.document?.root?.pairs.isEmpty == true)
    }

    @Test func aListAsAFlowMappingKey() {
        let result = parseYAML("{[a]: b}\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.complexKey, line: 1, column: 2, mentions: ["not a list"])
        #expect(diagnostic.map { span($0.range) } == "1:2-1:5")
    }

    @Test func aComplexKeyInsideANestedMapping() {
        let result = parseYAML("outer:\n  ? [x]\n  : y\n  z: 1\n")
        expectOnlyError(result, rule: YAMLRuleID.complexKey, line: 2, column: 5)
        #expect(result.document?.root?["outer"]?.pairs.map { $0.key.text } == ["z"])
    }

    @Test func aListValueIsNotAComplexKey() {
        #expect(parseYAML("a: [b]\nc: {d: [e]}\n").diagnostics.isEmpty)
    }

    @Test func anAliasToAListAsAKeyIsReportedAtTheAlias() {
        // The key is `*k`, written at 2:1; the anchored list itself is a fine value.
        let result = parseYAML("a: &k [1]\n*k : v\n")
        expectOnlyError(result, rule: YAMLRuleID.complexKey, line: 2, column: 1, mentions: ["not a list"])
    }
}
