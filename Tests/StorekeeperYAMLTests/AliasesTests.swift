import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Anchors (`&name`) and aliases (`*name`).
@Suite struct AliasesTests {
    @Test func aliasToAScalarIsTheAnchoredNode() throws {
        let result = parseYAML("a: &x 1\nb: *x\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let a = try #require(root["a"]), b = try #require(root["b"])
        #expect(b.kind == .scalar)
        #expect(b.text == "1")
        #expect(b.scalarStyle == .plain)
        // The anchored node starts at its anchor; the alias shares it, position and all.
        #expect(span(a) == "1:4-1:8")
        #expect(b.range == a.range)
    }

    @Test func aliasToAMapping() throws {
        let result = parseYAML("c: &m {p: 1, q: [2]}\nd: *m\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let d = try #require(root["d"])
        #expect(d.kind == .mapping && d.isFlow)
        #expect(d.pairs.map { $0.key.text } == ["p", "q"])
        #expect(d["p"]?.text == "1")
        #expect(d["q"]?.items.first?.text == "2")
        #expect(span(d) == "1:4-1:21")
        #expect(span(try #require(d["p"])) == "1:11-1:12")
    }

    @Test func aliasToASequence() throws {
        let result = parseYAML("e: &s\n  - 1\n  - 2\nf: *s\ng: [*s, *s]\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        let f = try #require(root["f"])
        #expect(f.kind == .sequence && !f.isFlow)
        #expect(f.items.map { $0.text } == ["1", "2"])
        #expect(f.items.map(span) == ["2:5-2:6", "3:5-3:6"])
        let g = try #require(root["g"])
        #expect(g.items.count == 2)
        #expect(g.items.allSatisfy { $0.items.map { $0.text } == ["1", "2"] })
    }

    @Test func aliasesInASequenceAndAsTheRoot() throws {
        let list = parseYAML("- &a x\n- *a\n")
        #expect(list.diagnostics.isEmpty)
        #expect(list.document?.root?.items.map { $0.text } == ["x", "x"])
        let root = parseYAML("&a x\n")
        #expect(root.diagnostics.isEmpty)
        #expect(root.document?.root?.text == "x")
    }

    @Test func anAliasMayBeAScalarKey() throws {
        let result = parseYAML("a: &k key\n*k : v\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.pairs.map { $0.key.text } == ["a", "key"])
        #expect(root["key"]?.text == "v")
    }

    @Test func theLatestAnchorOfANameWins() throws {
        let result = parseYAML("a: &x 1\nb: &x 2\nc: *x\n")
        #expect(result.diagnostics.isEmpty)
        #expect(result.document?.root?["c"]?.text == "2")
    }

    @Test func anAliasAfterItsAnchoredCollectionClosesIsFine() throws {
        let result = parseYAML("a: &a [1]\nb: [*a, [*a]]\n")
        #expect(result.diagnostics.isEmpty)
        #expect(result.document?.root?["b"]?.items[1].items[0].items[0].text == "1")
    }

    // MARK: Unknown aliases

    @Test func unknownAliasSuggestsTheNearestAnchor() throws {
        let result = parseYAML("a: &anchor 1\nb: *anchr\n")
        expectOnlyError(result, rule: YAMLRuleID.alias, line: 2, column: 4, mentions: ["*anchr", "no anchor", "did you mean 'anchor'"])
        // The tree keeps its shape: the bad alias reads as a null.
        let b = try #require(result.document?.root?["b"])
        #expect(b.isNull)
        #expect(span(b) == "2:4-2:10")
    }

    @Test func unknownAliasWithNothingCloseSuggestsNothing() {
        let result = parseYAML("a: &first 1\nb: *zzz\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.alias, line: 2, column: 4, mentions: ["*zzz", "&zzz"])
        #expect(diagnostic?.message.contains("did you mean") == false)
        #expect(result.document != nil)
    }

    @Test func anAliasCannotReferToAnAnchorBelowIt() {
        let result = parseYAML("a: *x\nb: &x 1\n")
        expectOnlyError(result, rule: YAMLRuleID.alias, line: 1, column: 4, mentions: ["*x"])
        #expect(result.document?.root?["a"]?.isNull == true)
        #expect(result.document?.root?["b"]?.text == "1")
    }

    // MARK: Self-reference

    @Test func anAliasInsideItsOwnAnchoredSequenceIsAnError() throws {
        let result = parseYAML("a: &a [*a]\n")
        expectOnlyError(result, rule: YAMLRuleID.alias, line: 1, column: 8, mentions: ["*a", "inside the value it refers to"])
        let a = try #require(result.document?.root?["a"])
        #expect(a.items.count == 1)
        #expect(a.items[0].isNull)
    }

    @Test func anAliasInsideItsOwnAnchoredMappingIsAnError() {
        let result = parseYAML("a: &m {k: *m}\n")
        expectOnlyError(result, rule: YAMLRuleID.alias, line: 1, column: 11, mentions: ["*m", "contain itself"])
        #expect(result.document?.root?["a"]?["k"]?.isNull == true)
    }

    @Test func anAliasDeepInsideItsOwnAnchoredRootIsAnError() {
        let result = parseYAML("&r\n- a\n- [*r]\n")
        expectOnlyError(result, rule: YAMLRuleID.alias, line: 3, column: 4, mentions: ["*r"])
        let flow = parseYAML("&a [1, *a]\n")
        expectOnlyError(flow, rule: YAMLRuleID.alias, line: 1, column: 8, mentions: ["*a"])
    }
}
