import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperRules
import StorekeeperYAML
import Testing

/// `# storekeeper:disable-next-line RULE-ID[, RULE-ID...] -- reason`: what
/// a comment hides, the problems of malformed ones (located at the part to
/// change), and unused suppressions.
@Suite struct SuppressionTests {
    static let policyRules: Set<String> = ["restore-at-launch", "display-length", "consumable-persistence"]
    static let file = "shop/catalog.yaml"

    func scan(_ text: String, file: String = SuppressionTests.file) -> (suppressions: [Suppression], diagnostics: [Diagnostic]) {
        SuppressionScanner.scan(Array(text.utf8), file: file, policyRules: Self.policyRules)
    }

    /// A rule's diagnostic starting at a line.
    func diagnostic(_ rule: String, line: Int, column: Int = 5, file: String = SuppressionTests.file) -> Diagnostic {
        Diagnostic(.error, rule: rule, "a problem", at: SourceLocation(file: file, line: line, column: column))
    }

    /// Diagnostics as `line:column rule`, for exact comparisons.
    func sites(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.location.line):\($0.location.column) \($0.rule)" }
    }

    /// Whether the set hides a diagnostic (a function, so that `#expect` can take it).
    func hides(_ set: inout SuppressionSet, _ diagnostic: Diagnostic) -> Bool {
        set.suppresses(diagnostic)
    }

    func ids(_ suppression: Suppression?) -> [String] { suppression?.rules.map(\.id) ?? [] }

    // MARK: Suppressing

    @Test func oneRuleIsSuppressedOnTheNextLine() throws {
        let text = """
            products:
              # storekeeper:disable-next-line restore-at-launch -- the SDK restores at launch for us
              - id: com.example.gold
                restore: at-launch

            """
        let (suppressions, diagnostics) = scan(text)
        #expect(diagnostics.isEmpty)
        let suppression = try #require(suppressions.first)
        #expect(suppressions.count == 1)
        #expect(suppression.file == Self.file)
        #expect((suppression.commentLine, suppression.targetLine) == (2, 3))
        #expect(suppression.reason == "the SDK restores at launch for us")
        let rule = try #require(suppression.rules.first)
        #expect(rule.id == "restore-at-launch")
        #expect((rule.range.start.line, rule.range.start.column, rule.range.end.column) == (2, 35, 52))
        #expect(rule.range.file == Self.file)

        var set = SuppressionSet(suppressions)
        #expect(hides(&set, diagnostic("restore-at-launch", line: 3)))
        #expect(!hides(&set, diagnostic("display-length", line: 3)))
        #expect(!hides(&set, diagnostic("restore-at-launch", line: 4)))
        #expect(!hides(&set, diagnostic("restore-at-launch", line: 3, file: "shop/other.yaml")))
        #expect(set.unused().isEmpty)
    }

    @Test func severalRulesInOneComment() {
        let (suppressions, diagnostics) = scan("""
            # storekeeper:disable-next-line restore-at-launch,display-length ,  consumable-persistence -- legacy product
            - id: a
            """)
        #expect(diagnostics.isEmpty)
        #expect(ids(suppressions.first) == ["restore-at-launch", "display-length", "consumable-persistence"])
        #expect(suppressions.first?.rules.map(\.range.start.column) == [33, 51, 69])
        var set = SuppressionSet(suppressions)
        #expect(hides(&set, diagnostic("restore-at-launch", line: 2)))
        #expect(hides(&set, diagnostic("consumable-persistence", line: 2, column: 1)))
        // The id that hid nothing is reported, at its place in the comment.
        let unused = set.unused()
        #expect(sites(unused) == ["1:51 unused-suppression"])
        #expect(unused.first?.severity == .warning)
        #expect(unused.first?.message.contains("'display-length' hides nothing") == true)
        #expect(unused.first?.message.contains("line 2; remove 'display-length' from the comment") == true)
    }

    @Test func stackedCommentsApplyToTheFirstLineBelowThem() {
        let (suppressions, diagnostics) = scan("""
            products:
              # storekeeper:disable-next-line restore-at-launch -- handled by the SDK
                # storekeeper:disable-next-line display-length -- the name is approved
              - id: a

            """)
        #expect(diagnostics.isEmpty)
        #expect(suppressions.map(\.commentLine) == [2, 3])
        #expect(suppressions.map(\.targetLine) == [4, 4])
        var set = SuppressionSet(suppressions)
        #expect(hides(&set, diagnostic("restore-at-launch", line: 4)))
        #expect(hides(&set, diagnostic("display-length", line: 4)))
        #expect(set.unused().isEmpty)
    }

    @Test func aBlankLineEndsTheReachOfAComment() {
        let (suppressions, _) = scan("# storekeeper:disable-next-line display-length -- approved\n\n- id: a\n")
        #expect(suppressions.first?.targetLine == 2)
        var set = SuppressionSet(suppressions)
        #expect(!hides(&set, diagnostic("display-length", line: 3)))
        #expect(sites(set.unused()) == ["1:33 unused-suppression"])
    }

    @Test func anUnusedSuppressionIsAWarningAtItsRuleID() {
        let (suppressions, _) = scan("products:\n  # storekeeper:disable-next-line display-length -- approved\n  - id: a\n")
        let set = SuppressionSet(suppressions)
        let unused = set.unused()
        #expect(sites(unused) == ["2:35 unused-suppression"])
        #expect(unused.first?.range.end.column == 49)
        #expect(unused.first?.message == "the suppression of 'display-length' hides nothing: no 'display-length' problem starts on line 3; remove the comment")
    }

    // MARK: Problems

    @Test func aReasonIsRequired() {
        let missing = scan("# storekeeper:disable-next-line restore-at-launch, display-length\n- id: a\n")
        #expect(missing.suppressions.isEmpty)
        #expect(sites(missing.diagnostics) == ["1:66 invalid-suppression"])
        #expect(missing.diagnostics.first?.message.contains(
            "needs a reason after ' -- ': write `# storekeeper:disable-next-line restore-at-launch, display-length -- why the rule does not apply here`") == true)

        let empty = scan("# storekeeper:disable-next-line restore-at-launch --   \n- id: a\n")
        #expect(empty.suppressions.isEmpty)
        #expect(sites(empty.diagnostics) == ["1:51 invalid-suppression"])
        #expect(empty.diagnostics.first?.message.contains("the reason after '--' is empty") == true)

        let noDashes = scan("# storekeeper:disable-next-line restore-at-launch because the SDK does it\n")
        #expect(noDashes.suppressions.isEmpty)
        #expect(sites(noDashes.diagnostics) == ["1:51 invalid-suppression"])
        #expect(noDashes.diagnostics.first?.message.contains(
            "write `# storekeeper:disable-next-line restore-at-launch -- because the SDK does it`") == true)
    }

    @Test func idsAreSeparatedByCommas() {
        let (suppressions, diagnostics) = scan("# storekeeper:disable-next-line restore-at-launch display-length -- r\n")
        #expect(suppressions.isEmpty)
        #expect(sites(diagnostics) == ["1:51 invalid-suppression"])
        #expect(diagnostics.first?.message.contains("`restore-at-launch, display-length`") == true)
        #expect(diagnostics.first?.range.end.column == 65)

        let prose = scan("# storekeeper:disable-next-line display-length is fine -- r\n")
        #expect(sites(prose.diagnostics) == ["1:48 invalid-suppression"])
        #expect(prose.diagnostics.first?.message.contains("'is fine' follows the rule ids without a comma") == true)

        let trailing = scan("# storekeeper:disable-next-line restore-at-launch, -- r\n")
        #expect(sites(trailing.diagnostics) == ["1:50 invalid-suppression"])
        #expect(trailing.diagnostics.first?.message.contains("a rule id is missing after ','") == true)

        let none = scan("# storekeeper:disable-next-line -- r\n")
        #expect(sites(none.diagnostics) == ["1:15 invalid-suppression"])
        #expect(none.diagnostics.first?.message.contains("name the rules to suppress") == true)
    }

    @Test func anUnknownRuleIsReportedWithTheNearestAndSuppressesNothing() {
        let (suppressions, diagnostics) = scan("""
            # storekeeper:disable-next-line display-length, restore-at-lunch -- r
            - id: a
            """)
        #expect(suppressions.isEmpty)
        #expect(sites(diagnostics) == ["1:49 invalid-suppression"])
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.message == "'restore-at-lunch' is not a policy rule; did you mean 'restore-at-launch'?")
        #expect(diagnostics.first?.range.end.column == 65)
    }

    @Test func formatChecksCannotBeSuppressed() {
        // `unknown-step` is one edit from `unknown-key`: suggesting it would hide a real policy rule's problems.
        let (suppressions, diagnostics) = SuppressionScanner.scan(
            Array("# storekeeper:disable-next-line unknown-key -- r\n".utf8), file: Self.file, policyRules: Self.policyRules.union(["unknown-step"]))
        #expect(suppressions.isEmpty)
        #expect(sites(diagnostics) == ["1:33 invalid-suppression"])
        #expect(diagnostics.first?.range.end.column == 44)
        #expect(diagnostics.first?.message
                == "'unknown-key' is a format check, which cannot be suppressed: fix the catalog instead (docs/diagnostics.md describes it)")
        // Other ids that are not policy rules still list them.
        let other = scan("# storekeeper:disable-next-line configuration -- r\n")
        #expect(other.diagnostics.first?.message.contains("'configuration' is not a policy rule, so it cannot be suppressed") == true)
        #expect(other.diagnostics.first?.message.contains("consumable-persistence, display-length, restore-at-launch") == true)
    }

    @Test func anOverLongIdIsQuotedTruncatedWithoutASuggestion() {
        // A two-million-character id: no suggestion is offered, and the message
        // quotes 40 characters.
        let long = "display-length" + String(repeating: "x", count: 2_000_000)
        let result = SuppressionScanner.scan(Array("# storekeeper:disable-next-line \(long.dropFirst(14)) -- r\nx: 1\n".utf8),
                                             file: Self.file, policyRules: RuleRegistry.ids)
        #expect(result.suppressions.isEmpty)
        #expect(sites(result.diagnostics) == ["1:33 invalid-suppression"])
        #expect(result.diagnostics.first?.message
                == "'\(String(repeating: "x", count: 40))…' is not a policy rule: it is over 100 characters long, and no rule id is")
        #expect(result.diagnostics.first?.range.end.column == 33 + 2_000_000)
        // Messages that repeat the ids, or the rest of the line, stay short too.
        let noReason = scan("# storekeeper:disable-next-line \(long)\n").diagnostics
        #expect(noReason.count == 2)
        #expect(noReason.allSatisfy { $0.message.utf8.count < 400 }, "\(noReason.map(\.message.utf8.count))")
        let directive = scan("# storekeeper:disable \(long) -- r\n").diagnostics
        #expect(directive.count == 1)
        #expect(directive.allSatisfy { $0.message.utf8.count < 400 })
    }

    @Test func otherDirectivesSuggestDisableNextLine() {
        let sameLine = scan("# storekeeper:disable-line restore-at-launch -- r\n")
        #expect(sameLine.suppressions.isEmpty)
        #expect(sites(sameLine.diagnostics) == ["1:15 invalid-suppression"])
        #expect(sameLine.diagnostics.first?.range.end.column == 27)
        #expect(sameLine.diagnostics.first?.message.contains("a line of its own, above the line it applies to; write `# storekeeper:disable-next-line restore-at-launch -- r`") == true)

        let block = scan("  # storekeeper:disable\n")
        #expect(sites(block.diagnostics) == ["1:17 invalid-suppression"])
        #expect(block.diagnostics.first?.message.contains("one line at a time; write `# storekeeper:disable-next-line RULE-ID -- reason`") == true)

        let typo = scan("# storekeeper: disable-nextline display-length -- r\n")
        #expect(sites(typo.diagnostics) == ["1:16 invalid-suppression"])
        #expect(typo.diagnostics.first?.message.contains("did you mean 'storekeeper:disable-next-line'?") == true)

        let bare = scan("# storekeeper:\n")
        #expect(sites(bare.diagnostics) == ["1:3 invalid-suppression"])
    }

    @Test func aDoubleDashAgainstAnIdStartsTheReason() {
        let (suppressions, diagnostics) = scan("#storekeeper:disable-next-line display-length--no space\nx: 1\n")
        #expect(suppressions.isEmpty)
        #expect(sites(diagnostics) == ["1:46 invalid-suppression"])
        #expect(diagnostics.first?.range.end.column == 48)
        #expect(diagnostics.first?.message
                == "'--' starts the reason, and needs a space before it: write `# storekeeper:disable-next-line display-length -- no space`")

        // With the reason after a space, and after a list of ids.
        let spaced = scan("# storekeeper:disable-next-line restore-at-launch, display-length-- approved by legal\n")
        #expect(sites(spaced.diagnostics) == ["1:66 invalid-suppression"])
        #expect(spaced.diagnostics.first?.message.contains(
            "write `# storekeeper:disable-next-line restore-at-launch, display-length -- approved by legal`") == true)

        // Nothing after it: the fix says what to write.
        let empty = scan("# storekeeper:disable-next-line display-length--\n")
        #expect(sites(empty.diagnostics) == ["1:47 invalid-suppression"])
        #expect(empty.diagnostics.first?.message.contains("display-length -- why the rule does not apply here`") == true)

        // The id before `--` is still checked.
        let unknown = scan("# storekeeper:disable-next-line display-lenght--no space\n")
        #expect(sites(unknown.diagnostics) == ["1:47 invalid-suppression", "1:33 invalid-suppression"])
        #expect(unknown.diagnostics.last?.message == "'display-lenght' is not a policy rule; did you mean 'display-length'?")

        // With a separator further on, a `--` inside the id is a typo of the id, not the separator.
        let typo = scan("# storekeeper:disable-next-line restore--at-launch -- r\n")
        #expect(sites(typo.diagnostics) == ["1:33 invalid-suppression"])
        #expect(typo.diagnostics.first?.message == "'restore--at-launch' is not a policy rule; did you mean 'restore-at-launch'?")
    }

    @Test func spacingAroundTheDirectiveIsForgiven() {
        let (suppressions, diagnostics) = scan("#storekeeper:disable-next-line display-length --approved\n\t#  storekeeper: disable-next-line restore-at-launch -- r\nx: 1\n")
        #expect(diagnostics.isEmpty)
        #expect(suppressions.map(\.reason) == ["approved", "r"])
        #expect(suppressions.map(\.targetLine) == [3, 3])
        #expect(suppressions.last?.rules.first?.range.start.column == 36)
    }

    @Test func proseAboutStorekeeperIsNotADirective() {
        let (suppressions, diagnostics) = scan("# storekeeper: catalogs of the shop\n# Storekeeper:disable-next-line x\nx: 1\n")
        #expect(suppressions.isEmpty)
        #expect(diagnostics.isEmpty)
    }

    // MARK: Where comments are read

    @Test func aHashInsideAValueIsNotASuppression() {
        let (suppressions, diagnostics) = scan("""
            products:
              - name: "Gold # storekeeper:disable-next-line restore-at-launch -- r"
                id: a # storekeeper:disable-next-line display-length -- trailing comments are not read
                note: 'x
                  y' # storekeeper:disable-line
                restore: at-launch

            """)
        #expect(suppressions.isEmpty)
        #expect(diagnostics.isEmpty)
    }

    @Test func windowsLineEndingsGiveTheSameLinesAndColumns() {
        let text = "products:\r\n  # storekeeper:disable-next-line restore-at-launch -- handled\r\n  - id: a\r\n  # storekeeper:disable-next-line restore-at-lunch -- r\r\n  - id: b\r\n"
        let (suppressions, diagnostics) = scan(text)
        #expect(suppressions.map(\.targetLine) == [3])
        #expect(suppressions.first?.reason == "handled")
        #expect(suppressions.first?.rules.first?.range.start.column == 35)
        #expect(sites(diagnostics) == ["4:35 invalid-suppression"])
        // A lone `\r` is a line break too, as YAML reads it.
        let oldMac = scan("a: 1\r# storekeeper:disable-next-line display-length -- r\rb: 2\r")
        #expect(oldMac.suppressions.map(\.commentLine) == [2])
    }

    /// The line libyaml gives the key `key` of the last item of the top-level `products` list.
    func yamlLine(ofLastItemKey key: String, in bytes: [UInt8]) -> Int? {
        let parsed = YAMLParser.parse(bytes, file: Self.file)
        guard let root = parsed.document?.root,
              let products = root.pairs.first(where: { $0.key.text == "products" })?.value,
              let last = products.items.last,
              let pair = last.pairs.first(where: { $0.key.text == key })
        else { return nil }
        return pair.key.location.line
    }

    @Test func unicodeLineBreaksCountAsLibyamlCountsThem() throws {
        // NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR inside quoted values are line breaks to libyaml.
        for separator in ["\u{2028}", "\u{2029}", "\u{85}"] {
            let text = """
                products:
                  - id: a
                    name: "Gold\(separator)Edition"
                    note: 'x\(separator)y'
                  # storekeeper:disable-next-line display-length -- approved
                  - id: b

                """
            let bytes = Array(text.utf8)
            let line = try #require(yamlLine(ofLastItemKey: "id", in: bytes))
            #expect(line == 8)
            let (suppressions, diagnostics) = SuppressionScanner.scan(bytes, file: Self.file, policyRules: Self.policyRules)
            #expect(diagnostics.isEmpty)
            #expect(suppressions.map(\.targetLine) == [line], "U+\(String(separator.unicodeScalars.first?.value ?? 0, radix: 16))")
            #expect(suppressions.first?.rules.first?.range.start.column == 35)
            var set = SuppressionSet(suppressions)
            #expect(hides(&set, diagnostic("display-length", line: line)))
        }
    }

    @Test func aCommentAfterAUnicodeLineBreakIsOnItsOwnLine() throws {
        // U+2028 ends the line before the comment, and the one the comment is on.
        let text = "products:\u{2028}# storekeeper:disable-next-line restore-at-lunch -- r\u{2028}  - id: b\n"
        let (suppressions, diagnostics) = scan(text)
        #expect(suppressions.isEmpty)
        #expect(sites(diagnostics) == ["2:33 invalid-suppression"])
        #expect(diagnostics.first?.message == "'restore-at-lunch' is not a policy rule; did you mean 'restore-at-launch'?")
        #expect(diagnostics.first?.range.end.column == 49)
        let valid = scan("a: 1\u{2028}# storekeeper:disable-next-line display-length -- the reason\u{2029}b: 2\n")
        #expect(valid.suppressions.map(\.reason) == ["the reason"])
        #expect(valid.suppressions.map(\.targetLine) == [3])
        // Other characters whose UTF-8 holds 0x85 or 0xA8 bytes are not breaks (U+2025, U+0A85, U+00A8).
        let lookalikes = scan("a: \"\u{2025}\u{A85}\u{A8}\"\n# storekeeper:disable-next-line display-length -- r\nb: 2\n")
        #expect(lookalikes.suppressions.map(\.targetLine) == [3])
    }

    @Test func utf16TextGetsTheSameLinesAsLibyaml() throws {
        let text = "products:\n  - id: a\n    name: \"Gold\u{2028}Edition\"\n  # storekeeper:disable-next-line display-length -- r\n  - id: b\n"
        var bytes: [UInt8] = [0xFF, 0xFE]  // UTF-16, little-endian
        for unit in text.utf16 { bytes += [UInt8(truncatingIfNeeded: unit), UInt8(truncatingIfNeeded: unit >> 8)] }
        let line = try #require(yamlLine(ofLastItemKey: "id", in: bytes))
        #expect(line == 6)
        let (suppressions, diagnostics) = SuppressionScanner.scan(bytes, file: Self.file, policyRules: Self.policyRules)
        #expect(diagnostics.isEmpty)
        #expect(suppressions.map(\.targetLine) == [line])
        #expect(suppressions.first?.rules.first?.range.start.column == 35)
    }

    @Test func aFileWithoutATrailingNewline() {
        let last = scan("a: 1\n# storekeeper:disable-next-line display-length -- r")
        #expect(last.diagnostics.isEmpty)
        #expect(last.suppressions.map(\.targetLine) == [3])
        #expect(last.suppressions.first?.reason == "r")
        #expect(sites(SuppressionSet(last.suppressions).unused()) == ["2:33 unused-suppression"])

        let target = scan("# storekeeper:disable-next-line display-length -- r\nname: x")
        var set = SuppressionSet(target.suppressions)
        #expect(hides(&set, diagnostic("display-length", line: 2, column: 7)))
        #expect(set.unused().isEmpty)

        let noReason = scan("# storekeeper:disable-next-line display-length")
        #expect(sites(noReason.diagnostics) == ["1:47 invalid-suppression"])
    }

    @Test func columnsCountUnicodeScalars() {
        // "café" is 4 characters (5 bytes); a byte order mark takes no column.
        let (_, diagnostics) = scan("\u{FEFF}# storekeeper:disable-next-line café, restore-at-lunch -- r\n")
        #expect(sites(diagnostics) == ["1:33 invalid-suppression", "1:39 invalid-suppression"])
        #expect(diagnostics.last?.range.end.column == 55)
    }

    @Test func manyFilesAndCommentsInOneSet() {
        let a = scan("# storekeeper:disable-next-line display-length -- r\nx: 1\n", file: "a.yaml")
        let b = scan("x: 1\n# storekeeper:disable-next-line display-length -- r\ny: 2\n", file: "b.yaml")
        var set = SuppressionSet(a.suppressions + b.suppressions)
        #expect(hides(&set, diagnostic("display-length", line: 2, file: "a.yaml")))
        #expect(!hides(&set, diagnostic("display-length", line: 2, file: "b.yaml")))
        #expect(set.unused().map(\.location.description) == ["b.yaml:2:33"])
    }

    @Test func aLargeFileIsScannedInOnePass() {
        // 100,000 lines with a `#` in quoted values; two directives near the end.
        var text = ""
        for index in 0..<100_000 { text += "  - {id: p\(index), name: \"Nº #\(index)\"}\n" }
        text += "  # storekeeper:disable-next-line display-length -- r\n  - {id: last}\n"
        let (suppressions, diagnostics) = scan(text)
        #expect(diagnostics.isEmpty)
        #expect(suppressions.map(\.targetLine) == [100_002])
    }
}
