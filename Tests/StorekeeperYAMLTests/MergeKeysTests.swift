import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// `<<` merge keys: a mapping, or a list of mappings, merged into another.
@Suite struct MergeKeysTests {
    @Test func explicitKeysOverrideMergedOnesAndComeFirst() throws {
        let result = parseYAML("base: &base\n  x: 1\n  y: 2\nchild:\n  <<: *base\n  y: 3\n  z: 4\n")
        #expect(result.diagnostics.isEmpty)
        let child = try #require(result.document?.root?["child"])
        #expect(child.pairs.map { $0.key.text } == ["y", "z", "x"])
        #expect(child.pairs.map { $0.value.text } == ["3", "4", "1"])
        #expect(child["<<"] == nil, "the merge key itself is not a pair")
        // The base is unchanged.
        #expect(result.document?.root?["base"]?.pairs.map { $0.value.text } == ["1", "2"])
    }

    @Test func mergedPairsPointIntoTheAnchoredMapping() throws {
        let result = parseYAML("base: &base\n  x: 1\n  y: 2\nchild:\n  <<: *base\n  y: 3\n")
        let child = try #require(result.document?.root?["child"])
        let x = try #require(child.pairs.first { $0.key.text == "x" })
        #expect(span(x.key) == "2:3-2:4")
        #expect(span(x.value) == "2:6-2:7")
        #expect(span(try #require(child["y"])) == "6:6-6:7")
        // The merging mapping starts at its first key, the merge key.
        #expect(span(child) == "5:3-7:1")
    }

    @Test func aMappingRecordsWhichPairsEachMergeKeyBrought() throws {
        // Two `<<` keys: the first brings x (its y is overridden), the second z.
        let result = parseYAML("a: &a {x: 1, y: 1}\nb: &b {z: 2}\nc:\n  <<: *a\n  y: 0\n  <<: *b\n")
        #expect(result.diagnostics.isEmpty)
        let c = try #require(result.document?.root?["c"])
        #expect(c.pairs.map { $0.key.text } == ["y", "x", "z"])
        #expect(c.merges.map { span($0.site) } == ["4:3-4:5", "6:3-6:5"])
        #expect(c.merges.map(\.pairs) == [1..<2, 2..<3])
        // Pairs written in a mapping have no merge, nor do mappings without `<<`.
        #expect(try #require(result.document?.root?["a"]).merges.isEmpty)
        #expect(try #require(result.document?.root).merges.isEmpty)
    }

    @Test func aMergeWhoseKeysAreAllOverriddenBringsNothing() throws {
        let result = parseYAML("a: &a {x: 1}\nb:\n  <<: *a\n  x: 2\n")
        #expect(result.diagnostics.isEmpty)
        let b = try #require(result.document?.root?["b"])
        #expect(b.pairs.map { $0.key.text } == ["x"])
        #expect(b.merges.isEmpty)
    }

    @Test func aListOfMergesIsOneMergeAtItsKey() throws {
        let result = parseYAML("a: &a {x: 1}\nb: &b {y: 2}\nc: {w: 0, <<: [*a, *b]}\n")
        #expect(result.diagnostics.isEmpty)
        let c = try #require(result.document?.root?["c"])
        #expect(c.merges.map { span($0.site) } == ["3:11-3:13"])
        #expect(c.merges.map(\.pairs) == [1..<3])
    }

    @Test func aListOfMergesEarlierMappingsWin() throws {
        let result = parseYAML("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  w: 0\n")
        #expect(result.diagnostics.isEmpty)
        let c = try #require(result.document?.root?["c"])
        #expect(c.pairs.map { $0.key.text } == ["w", "x", "y", "z"])
        #expect(c.pairs.map { $0.value.text } == ["0", "1", "1", "2"])
        #expect(span(try #require(c["y"])) == "1:17-1:18")
        #expect(span(try #require(c["z"])) == "2:17-2:18")
    }

    @Test func anInlineMappingCanBeMerged() throws {
        let result = parseYAML("a:\n  <<: {x: 1, y: 2}\n  y: 3\n")
        #expect(result.diagnostics.isEmpty)
        let a = try #require(result.document?.root?["a"])
        #expect(a.pairs.map { $0.key.text } == ["y", "x"])
        #expect(a["y"]?.text == "3")
    }

    @Test func mergesInFlowMappingsAndListItems() throws {
        let flow = parseYAML("a: &a {x: 1}\nb: {<<: *a, y: 2}\n")
        #expect(flow.diagnostics.isEmpty)
        #expect(flow.document?.root?["b"]?.pairs.map { $0.key.text } == ["y", "x"])
        let list = parseYAML("- &a {x: 1}\n- <<: *a\n  y: 2\n")
        #expect(list.diagnostics.isEmpty)
        #expect(list.document?.root?.items[1].pairs.map { $0.key.text } == ["y", "x"])
    }

    @Test func mergesChain() throws {
        let result = parseYAML("a: &a {x: 1}\nb: &b\n  <<: *a\n  y: 2\nc:\n  <<: *b\n  z: 3\n")
        #expect(result.diagnostics.isEmpty)
        let c = try #require(result.document?.root?["c"])
        #expect(c.pairs.map { $0.key.text } == ["z", "y", "x"])
        #expect(c.pairs.map { $0.value.text } == ["3", "2", "1"])
    }

    @Test func aQuotedMergeKeyIsAnOrdinaryKey() throws {
        let result = parseYAML("a: &a {x: 1}\nb:\n  '<<': *a\n")
        #expect(result.diagnostics.isEmpty)
        let b = try #require(result.document?.root?["b"])
        #expect(b.pairs.map { $0.key.text } == ["<<"])
        #expect(b["<<"]?["x"]?.text == "1")
        #expect(b["x"] == nil)
    }

    // MARK: Bad merge values

    @Test func mergingAScalarIsAnError() throws {
        let result = parseYAML("a:\n  <<: scalar\n  b: 1\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.mergeKey, line: 2, column: 7, mentions: ["`<<`", "mapping"])
        #expect(diagnostic?.range.end == at(2, 13))
        // The rest of the mapping survives.
        let a = try #require(result.document?.root?["a"])
        #expect(a.pairs.map { $0.key.text } == ["b"])
    }

    @Test func aMergeListHoldingAScalarIsAnErrorAtTheScalar() throws {
        let result = parseYAML("a: &a {x: 1}\nb:\n  <<: [*a, s]\n  c: 1\n")
        expectOnlyError(result, rule: YAMLRuleID.mergeKey, line: 3, column: 12, mentions: ["`<<`", "only mappings", "a single value"])
        // The mappings of the list are still merged.
        let b = try #require(result.document?.root?["b"])
        #expect(b.pairs.map { $0.key.text } == ["c", "x"])
    }

    @Test func aMergeListHoldingAListIsAnError() {
        let result = parseYAML("b:\n  <<: [[x]]\n")
        expectOnlyError(result, rule: YAMLRuleID.mergeKey, line: 2, column: 8, mentions: ["only mappings", "a list"])
    }

    @Test func mergingAnAliasedScalarIsReportedAtTheAlias() {
        // The mistake is the `<<: *s` on line 3, not the harmless `text` on line 1.
        let result = parseYAML("s: &s text\nb:\n  <<: *s\n")
        expectOnlyError(result, rule: YAMLRuleID.mergeKey, line: 3, column: 7, mentions: ["`<<`", "mapping"])
    }

    @Test func anAliasedScalarInAMergeListIsReportedAtTheAlias() {
        let result = parseYAML("a: &a {x: 1}\ns: &s text\nb:\n  <<: [*a, *s]\n")
        expectOnlyError(result, rule: YAMLRuleID.mergeKey, line: 4, column: 12, mentions: ["only mappings"])
        #expect(result.document?.root?["b"]?["x"]?.text == "1")
    }

    @Test func mergingAnUnknownAliasIsOneError() throws {
        // The unknown alias is the problem; the merge of its placeholder must not add a second error.
        let result = parseYAML("b:\n  <<: *nope\n  c: 1\n")
        expectOnlyError(result, rule: YAMLRuleID.alias, line: 2, column: 7, mentions: ["*nope"])
        #expect(result.document?.root?["b"]?.pairs.map { $0.key.text } == ["c"])
    }
}
