import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Hostile input is stopped quickly and in bounded memory: alias bombs, deep
/// nesting and huge files.
@Suite struct LimitsTests {
    @Test func defaultsAndClamping() {
        let limits = YAMLLimits.default
        #expect(limits.maxFileSize == 16 << 20)
        #expect(limits.maxDepth == 64)
        #expect(limits.maxAliasExpansion == 1_000_000)
        #expect(YAMLLimits() == .default)
        let clamped = YAMLLimits(maxFileSize: 0, maxDepth: -3, maxAliasExpansion: -1)
        #expect(clamped.maxFileSize == 1)
        #expect(clamped.maxDepth == 1)
        #expect(clamped.maxAliasExpansion == 0)
    }

    // MARK: Alias expansion

    /// `levels` lines, each a list of `width` aliases to the line above; line 1 a list of `width` scalars.
    static func laughs(levels: Int, width: Int) -> String {
        var text = "l0: &l0 [" + Array(repeating: "x", count: width).joined(separator: ", ") + "]\n"
        for level in 1...levels {
            text += "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: width).joined(separator: ", ") + "]\n"
        }
        return text
    }

    /// The nodes the aliases of `laughs` add when copied out: each alias adds
    /// its target's whole size. (A list of n nodes' worth is 1 + n.)
    static func laughsExpansion(levels: Int, width: Int) -> Int {
        var size = 1 + width  // l0
        var total = 0
        for _ in 1...levels {
            total += width * size
            size = 1 + width * size
        }
        return total
    }

    @Test func billionLaughsIsStoppedAtTheAliasThatCrossesTheBudget() {
        // 9 levels of 10 aliases: copied out, l9 alone would be over 10^10 nodes.
        #expect(Self.laughsExpansion(levels: 9, width: 10) > 10_000_000_000)
        let result = parseYAML(Self.laughs(levels: 9, width: 10))
        // Up to l4 the aliases add 123,440 nodes; each *l4 adds 111,111, so the 8th on line 6
        // (column 10 + 7 * 5) crosses 1,000,000.
        expectRejected(
            result, rule: YAMLRuleID.limit, line: 6, column: 45,
            mentions: ["alias", "1000000", "--max-alias-expansion"])
    }

    @Test func theBudgetCountsEveryAliasAsIfCopiedOut() throws {
        // With the budget set to exactly the bomb's expansion it is accepted (nodes are shared,
        // so reading it is still cheap), and one node less is rejected at the very last alias.
        let exact = Self.laughsExpansion(levels: 9, width: 10)
        let text = Self.laughs(levels: 9, width: 10)
        let accepted = parseYAML(text, limits: YAMLLimits(maxAliasExpansion: exact))
        #expect(accepted.diagnostics.isEmpty)
        let document = try #require(accepted.document)
        // Aliases share their node: the root, 10 keys, l0 and its 10 items, and the 9 other lists; nothing copied.
        #expect(document.nodeCount == 1 + 10 + 11 + 9)
        let root = try #require(document.root)
        #expect(root["l9"]?.items.count == 10)
        #expect(root["l9"]?.items[9].items[9].items[9].items.count == 10)
        let rejected = parseYAML(text, limits: YAMLLimits(maxAliasExpansion: exact - 1))
        expectRejected(rejected, rule: YAMLRuleID.limit, line: 10, column: 55, mentions: ["beyond \(exact - 1) nodes"])
    }

    @Test func theBudgetStaysExactBeyondFourBillionNodes() {
        // 11 levels: about 1.2 * 10^12 nodes copied out, more than a 32-bit count can hold.
        let exact = Self.laughsExpansion(levels: 11, width: 10)
        #expect(exact > 1_000_000_000_000)
        let text = Self.laughs(levels: 11, width: 10)
        #expect(parseYAML(text, limits: YAMLLimits(maxAliasExpansion: exact)).diagnostics.isEmpty)
        // One node under: rejected at the last alias, `*l10` number 10 on line 12 (column 12 + 9 * 6).
        expectRejected(
            parseYAML(text, limits: YAMLLimits(maxAliasExpansion: exact - 1)), rule: YAMLRuleID.limit, line: 12, column: 66)
        // With a tenth of the budget, the first `*l10` (itself over 10^11 nodes) is already too much.
        expectRejected(
            parseYAML(text, limits: YAMLLimits(maxAliasExpansion: exact / 10)), rule: YAMLRuleID.limit, line: 12, column: 12)
    }

    @Test func aSmallBudgetRejectsAModestDocumentAndALargerOneAcceptsIt() throws {
        // Each alias to the three-item list adds 4 nodes: 8 in all.
        let text = "a: &a [1, 2, 3]\nb: *a\nc: *a\n"
        expectRejected(
            parseYAML(text, limits: YAMLLimits(maxAliasExpansion: 7)), rule: YAMLRuleID.limit, line: 3, column: 4,
            mentions: ["beyond 7 nodes"])
        let accepted = parseYAML(text, limits: YAMLLimits(maxAliasExpansion: 8))
        #expect(accepted.diagnostics.isEmpty)
        #expect(accepted.document?.root?["c"]?.items.count == 3)
    }

    @Test func aZeroBudgetRejectsEveryAlias() {
        expectRejected(
            parseYAML("a: &a 1\nb: *a\n", limits: YAMLLimits(maxAliasExpansion: 0)), rule: YAMLRuleID.limit, line: 2, column: 4,
            mentions: ["beyond 0 nodes"])
        #expect(parseYAML("a: &a 1\nb: 2\n", limits: YAMLLimits(maxAliasExpansion: 0)).diagnostics.isEmpty)
    }

    @Test func mergedPairsCountAgainstTheBudgetAtTheMergeKey() throws {
        // The alias adds 5 nodes (the mapping and two pairs); merging copies the two pairs out again: 4 more.
        let text = "a: &a {x: 1, y: 2}\nb:\n  <<: *a\n"
        expectRejected(parseYAML(text, limits: YAMLLimits(maxAliasExpansion: 4)), rule: YAMLRuleID.limit, line: 3, column: 7)
        expectRejected(parseYAML(text, limits: YAMLLimits(maxAliasExpansion: 8)), rule: YAMLRuleID.limit, line: 3, column: 3)
        let accepted = parseYAML(text, limits: YAMLLimits(maxAliasExpansion: 9))
        #expect(accepted.diagnostics.isEmpty)
        #expect(accepted.document?.root?["b"]?.pairs.count == 2)
    }

    @Test func mergeKeyBombIsStopped() {
        // Each level is ten mappings that each merge the level above: 10^10 pairs if copied out.
        var text = "m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10}\n"
        for level in 1...9 {
            text += "m\(level): &m\(level) {" + (0..<10).map { "k\($0): {<<: *m\(level - 1)}" }.joined(separator: ", ") + "}\n"
        }
        // Up to m4 the expansion is 493,640; on line 6 the first mapping adds 222,221 (alias) + 222,220 (merge),
        // and the alias of the second (column 10 + 15 + 9) crosses 1,000,000.
        expectRejected(parseYAML(text), rule: YAMLRuleID.limit, line: 6, column: 34, mentions: ["alias", "--max-alias-expansion"])
    }

    @Test func mergeListBombIsStopped() {
        // Merge lists of aliases to ever larger mappings, each level doubling the last.
        var text = "a0: &a0 {k0: 0}\n"
        for level in 1...40 {
            text += "a\(level): &a\(level) {<<: [*a\(level - 1)], k\(level): [*a\(level - 1), *a\(level - 1)]}\n"
        }
        let result = parseYAML(text)
        #expect(result.document == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.rule == YAMLRuleID.limit)
    }

    // MARK: Depth

    @Test func oneHundredThousandOpeningBracketsStopAtTheSixtyFifth() {
        let result = parseYAML(String(repeating: "[", count: 100_000))
        expectRejected(result, rule: YAMLRuleID.limit, line: 1, column: 65, mentions: ["deeper than 64", "--max-depth"])
    }

    @Test func oneHundredThousandOpeningBracesStopAtTheSixtyFifth() {
        let result = parseYAML(String(repeating: "{", count: 100_000))
        expectRejected(result, rule: YAMLRuleID.limit, line: 1, column: 65, mentions: ["deeper than 64", "--max-depth"])
    }

    @Test func mixedOpenersStopAtTheSixtyFifth() {
        let result = parseYAML(String(repeating: "[{", count: 50_000))
        expectRejected(result, rule: YAMLRuleID.limit, line: 1, column: 65, mentions: ["deeper than 64"])
    }

    @Test func sixtyFourLevelsAreAllowedSixtyFiveAreNot() throws {
        let ok = parseYAML(String(repeating: "[", count: 64) + "x" + String(repeating: "]", count: 64) + "\n")
        #expect(ok.diagnostics.isEmpty)
        var node = try #require(ok.document?.root)
        for _ in 1..<64 { node = try #require(node.items.first) }
        #expect(node.items.first?.text == "x")
        #expect(span(node) == "1:64-1:67")
        let tooDeep = parseYAML(String(repeating: "[", count: 65) + "x" + String(repeating: "]", count: 65) + "\n")
        expectRejected(tooDeep, rule: YAMLRuleID.limit, line: 1, column: 65)
    }

    @Test func nestedBlockSequencesAreBoundedToo() {
        // `- - - … x`: the 65th `- ` is at column 2 * 64 + 1.
        let ok = parseYAML(String(repeating: "- ", count: 64) + "x\n")
        #expect(ok.diagnostics.isEmpty)
        #expect(ok.document != nil)
        let tooDeep = parseYAML(String(repeating: "- ", count: 65) + "x\n")
        expectRejected(tooDeep, rule: YAMLRuleID.limit, line: 1, column: 129, mentions: ["deeper than 64"])
        let bomb = parseYAML(String(repeating: "- ", count: 100_000) + "x\n")
        expectRejected(bomb, rule: YAMLRuleID.limit, line: 1, column: 129)
    }

    @Test func nestedBlockMappingsAreBoundedToo() {
        // Line n (1-based) is `k{n-1}:` indented by n - 1 spaces; the 65th mapping starts on line 65, column 65.
        let text = (0..<70).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " x\n"
        expectRejected(parseYAML(text), rule: YAMLRuleID.limit, line: 65, column: 65)
    }

    @Test func maxDepthIsSettable() {
        let text = "a: [[[x]]]\n"
        // The root mapping is level 1: the third `[` is level 4.
        expectRejected(parseYAML(text, limits: YAMLLimits(maxDepth: 3)), rule: YAMLRuleID.limit, line: 1, column: 6, mentions: ["deeper than 3"])
        #expect(parseYAML(text, limits: YAMLLimits(maxDepth: 4)).diagnostics.isEmpty)
        // Depth 1: a flat mapping only.
        #expect(parseYAML("a: 1\nb: 2\n", limits: YAMLLimits(maxDepth: 1)).diagnostics.isEmpty)
        expectRejected(parseYAML("a: [1]\n", limits: YAMLLimits(maxDepth: 1)), rule: YAMLRuleID.limit, line: 1, column: 4)
        // A higher limit allows more.
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(parseYAML(deep, limits: YAMLLimits(maxDepth: 100)).diagnostics.isEmpty)
        expectRejected(parseYAML("[" + deep + "]", limits: YAMLLimits(maxDepth: 100)), rule: YAMLRuleID.limit, line: 1, column: 101)
    }

    // MARK: File size

    @Test func aFileOverTheSizeLimitIsRejectedBeforeReading() {
        let limits = YAMLLimits(maxFileSize: 10)
        let accepted = parseYAML("a: 1234567", limits: limits)
        #expect(accepted.diagnostics.isEmpty)
        #expect(accepted.document?.root?["a"]?.text == "1234567")
        expectRejected(
            parseYAML("a: 12345678", limits: limits), rule: YAMLRuleID.limit, line: 1, column: 1,
            mentions: ["11 bytes", "10 bytes", "--max-file-size"])
        // Not even looked at: eleven bytes of junk give the size error only.
        expectRejected(parseYAML(bytes: Array(repeating: 0xFF, count: 11), limits: limits), rule: YAMLRuleID.limit, line: 1, column: 1)
    }

    @Test func theDefaultSizeLimitIsSixteenMebibytes() {
        let justOver = [UInt8](repeating: UInt8(ascii: "#"), count: (16 << 20) + 1)
        expectRejected(parseYAML(bytes: justOver), rule: YAMLRuleID.limit, line: 1, column: 1, mentions: ["MiB", "--max-file-size"])
    }

    @Test func byteCountsReadAsPeopleWriteThem() {
        #expect(ByteCount(0).description == "0 bytes")
        #expect(ByteCount(1023).description == "1023 bytes")
        #expect(ByteCount(1024).description == "1 KiB")
        #expect(ByteCount(1536).description == "1.5 KiB")
        #expect(ByteCount(16 << 20).description == "16 MiB")
        #expect(ByteCount(3 << 30).description == "3 GiB")
    }
}
