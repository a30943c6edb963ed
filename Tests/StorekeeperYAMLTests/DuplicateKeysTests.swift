import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// A repeated key is an error at the repetition, with a note at the first.
@Suite struct DuplicateKeysTests {
    /// `count` lines `kN: N` for N in `range`, each ending in a newline.
    func keys(_ range: ClosedRange<Int>, indent: String = "") -> String {
        range.map { "\(indent)k\($0): \($0)\n" }.joined()
    }

    @Test func blockMappingRepeatIsAnErrorAtTheRepeatWithANoteAtTheFirst() throws {
        let result = parseYAML("a: 1\nb: 2\na: 3\n")
        let diagnostic = try #require(
            expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 3, column: 1, mentions: ["'a'", "twice"]))
        #expect(diagnostic.range.end == at(3, 2))
        #expect(diagnostic.notes.count == 1)
        #expect(diagnostic.notes.first?.location == at(1, 1))
        #expect(diagnostic.notes.first?.message.contains("first") == true)
        // The tree keeps the first value only.
        let root = try #require(result.document?.root)
        #expect(root.pairs.map { $0.key.text } == ["a", "b"])
        #expect(root["a"]?.text == "1")
    }

    @Test func threeRepeatsGiveTwoErrorsEachPointingAtTheFirst() throws {
        let result = parseYAML("a: 1\nb: 2\na: 3\na: 4\n")
        #expect(result.diagnostics.count == 2)
        expectError(result.diagnostics.first, rule: YAMLRuleID.duplicateKey, line: 3, column: 1, mentions: ["'a'"])
        expectError(result.diagnostics.last, rule: YAMLRuleID.duplicateKey, line: 4, column: 1, mentions: ["'a'"])
        for diagnostic in result.diagnostics {
            #expect(diagnostic.notes.map(\.location) == [at(1, 1)])
        }
        #expect(result.document?.root?["a"]?.text == "1")
        #expect(result.document?.root?.pairs.count == 2)
    }

    @Test func flowMappingRepeat() throws {
        let result = parseYAML("{a: 1, b: 2, a: 3}\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 1, column: 14, mentions: ["'a'"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 2)])
        #expect(result.document?.root?.pairs.count == 2)
    }

    @Test func flowMappingInsideBlockRepeat() {
        let result = parseYAML("a: {b: 1, b: 2}\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 1, column: 11, mentions: ["'b'"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 5)])
    }

    @Test func nestedMappingsAreCheckedSeparately() throws {
        let result = parseYAML("a:\n  x: 1\n  x: 2\nb:\n  x: 3\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 3, column: 3, mentions: ["'x'"])
        #expect(diagnostic?.notes.map(\.location) == [at(2, 3)])
        #expect(result.document?.root?["b"]?["x"]?.text == "3")
    }

    @Test func quotingDoesNotMakeADifferentKey() {
        // `a`, `'a'` and `"\x61"` are all the text "a".
        let single = parseYAML("a: 1\n'a': 2\n")
        let diagnostic = expectOnlyError(single, rule: YAMLRuleID.duplicateKey, line: 2, column: 1, mentions: ["'a'"])
        #expect(diagnostic?.range.end == at(2, 4))
        let escaped = parseYAML("a: 1\n\"\\x61\": 2\n")
        expectOnlyError(escaped, rule: YAMLRuleID.duplicateKey, line: 2, column: 1, mentions: ["'a'"])
    }

    @Test func keysDifferingInCaseOrSpellingAreNotRepeats() {
        #expect(parseYAML("a: 1\nA: 2\n").diagnostics.isEmpty)
        #expect(parseYAML("1: a\n01: b\n").diagnostics.isEmpty)
        #expect(parseYAML("é: 1\ne\u{301}: 2\n").diagnostics.isEmpty, "different scalars, though canonically equivalent")
    }

    @Test func aRepeatInsideAnAnchoredMappingIsReportedOnceHoweverOftenItIsAliased() {
        let result = parseYAML("a: &a {x: 1, x: 2}\nb: *a\nc: *a\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 1, column: 14, mentions: ["'x'"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 8)])
        #expect(result.document?.root?["c"]?["x"]?.text == "1")
    }

    @Test func aRepeatWrittenAsAnAliasIsReportedAtTheAlias() {
        // The third key is `*k`, whose text is "key": the repeat is written at 3:1.
        let result = parseYAML("a: &k key\nkey: 1\n*k : 2\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 3, column: 1, mentions: ["'key'"])
        #expect(diagnostic?.notes.map(\.location) == [at(2, 1)])
    }

    // MARK: Large mappings (more than 16 pairs are checked by hashing)

    @Test func largeMappingRepeats() throws {
        let result = parseYAML(keys(1...17) + "k3: x\nk3: y\n")
        #expect(result.diagnostics.count == 2)
        expectError(result.diagnostics.first, rule: YAMLRuleID.duplicateKey, line: 18, column: 1, mentions: ["'k3'"])
        expectError(result.diagnostics.last, rule: YAMLRuleID.duplicateKey, line: 19, column: 1, mentions: ["'k3'"])
        for diagnostic in result.diagnostics {
            #expect(diagnostic.notes.map(\.location) == [at(3, 1)])
        }
        let root = try #require(result.document?.root)
        #expect(root.pairs.count == 17)
        #expect(root["k3"]?.text == "3")
    }

    @Test(arguments: [15, 16, 17, 40])
    func repeatOfTheFirstKeyAfterManyOthers(distinct: Int) throws {
        // distinct + 1 pairs: 16 pairs are scanned, 17 and more hashed; both must agree.
        let result = parseYAML(keys(1...distinct) + "k1: again\n")
        let diagnostic = expectOnlyError(
            result, rule: YAMLRuleID.duplicateKey, line: distinct + 1, column: 1, mentions: ["'k1'"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, 1)])
        let root = try #require(result.document?.root)
        #expect(root.pairs.count == distinct)
        #expect(root["k1"]?.text == "1")
    }

    @Test func largeMappingThreeRepeatsPointAtTheFirst() {
        let result = parseYAML(keys(1...20) + "k7: a\nk20: b\nk7: c\n")
        #expect(result.diagnostics.count == 3)
        let found = result.diagnostics.map { ($0.location.line, $0.notes.first?.location.line) }
        #expect(found.map(\.0) == [21, 22, 23])
        #expect(found.map(\.1) == [7, 20, 7])
        #expect(result.diagnostics.allSatisfy { $0.rule == YAMLRuleID.duplicateKey })
    }

    @Test func largeMappingWithoutRepeatsKeepsEveryPairInOrder() throws {
        let result = parseYAML(keys(1...40))
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.pairs.map { $0.key.text } == (1...40).map { "k\($0)" })
        #expect(root.pairs.map { $0.value.text } == (1...40).map { "\($0)" })
    }

    @Test func largeMappingsCompareKeysLikeSmallOnes() {
        // `é` (U+00E9) and `e` + U+0301 are different scalars, so different keys, as in a small mapping;
        // the hashed path must not start treating them as one.
        let result = parseYAML(keys(1...20) + "\u{E9}: 1\ne\u{301}: 2\n")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(result.document?.root?.pairs.count == 22)
    }

    @Test func largeFlowMappingRepeat() {
        let prefix = "{" + (0..<20).map { "k\($0): \($0), " }.joined()
        let result = parseYAML(prefix + "k5: x}\n")
        let diagnostic = expectOnlyError(
            result, rule: YAMLRuleID.duplicateKey, line: 1, column: column(after: prefix), mentions: ["'k5'"])
        #expect(diagnostic?.notes.map(\.location) == [at(1, column(after: "{k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, "))])
    }

    // MARK: Merge keys

    @Test func keysRepeatedThroughMergesAreNotErrors() throws {
        let result = parseYAML("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  x: 0\n")
        #expect(result.diagnostics.isEmpty)
        let c = try #require(result.document?.root?["c"])
        #expect(c.pairs.map { $0.key.text } == ["x", "y", "z"])
        #expect(c["x"]?.text == "0")
        #expect(c["y"]?.text == "1")
    }

    @Test func aRealRepeatNextToAMergeIsStillAnError() throws {
        let result = parseYAML("x: &x {a: 1}\ny:\n  <<: *x\n  a: 2\n  a: 3\n")
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 5, column: 3, mentions: ["'a'"])
        #expect(diagnostic?.notes.map(\.location) == [at(4, 3)])
        #expect(result.document?.root?["y"]?["a"]?.text == "2")
        #expect(result.document?.root?["y"]?.pairs.count == 1)
    }

    @Test func largeMappingWithMergesAndARepeat() throws {
        let text = "m: &m {a: 1}\nx:\n" + keys(1...20, indent: "  ") + "  <<: *m\n  <<: *m\n  k5: dup\n"
        let result = parseYAML(text)
        let diagnostic = expectOnlyError(result, rule: YAMLRuleID.duplicateKey, line: 25, column: 3, mentions: ["'k5'"])
        #expect(diagnostic?.notes.map(\.location) == [at(7, 3)])
        let x = try #require(result.document?.root?["x"])
        #expect(x.pairs.count == 21)
        #expect(x.pairs.last?.key.text == "a")
        #expect(x["k5"]?.text == "5")
    }

    @Test func largeMappingWithAMergeOverriddenByExplicitKeys() throws {
        let result = parseYAML(keys(1...20) + "<<: {k1: x, z: 1}\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.document?.root)
        #expect(root.pairs.count == 21)
        #expect(root["k1"]?.text == "1")
        #expect(root.pairs.last?.key.text == "z")
    }
}
