import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct CustomRulesTests {
    /// The fixture with `rules:` after its product; returns the fixture and
    /// the line of the first rule line given (the line after `rules:`).
    func rules(_ lines: String...) -> (CatalogFixture, first: Int) {
        var fixture = CatalogFixture()
        fixture.trailer = ["rules:"] + lines
        return (fixture, fixture.trailerLine + 1)
    }

    func column(of needle: String, in fixture: CatalogFixture, occurrence: Int = 1) -> Int {
        position(of: needle, in: fixture.text, occurrence: occurrence).column
    }

    // MARK: Structure that decodes

    @Test func aRuleThatReplacesSteps() throws {
        let (fixture, first) = rules(
            "  - name: quiet-cancel",
            "    when: {state: failed, error: payment-cancelled, type: non-consumable, delivery: built-in, product: com.example.shop.item}",
            "    do: [finish]")
        let result = fixture.load()
        expectClean(result)
        let rule = try #require(result.catalog?.rules.first)
        #expect(rule.name.value == "quiet-cancel")
        #expect(rule.location == SourceLocation(file: "catalog.yaml", line: first, column: 5))
        #expect(rule.condition.state?.value == .failed)
        #expect(rule.condition.error?.value == .paymentCancelled)
        #expect(rule.condition.type?.value == .nonConsumable)
        #expect(rule.condition.delivery?.value == .builtIn)
        #expect(rule.condition.product?.value == "com.example.shop.item")
        #expect(rule.condition.location.line == first + 1 && rule.condition.location.column == 11)
        #expect(rule.action == .replace([Located("finish", at: SourceRange(
            start: SourceLocation(file: "catalog.yaml", line: first + 2, column: 10),
            end: SourceLocation(file: "catalog.yaml", line: first + 2, column: 16)))]))
    }

    @Test(arguments: ["before", "after"])
    func aRuleThatInsertsSteps(place: String) throws {
        let (fixture, _) = rules(
            "  - name: tell",
            "    when: {state: purchased}",
            "    add: {\(place): persist, steps: [notify, custom-step]}")
        let rule = try #require(fixture.load().catalog?.rules.first)
        guard case .insert(let anchor, let steps) = rule.action else {
            Issue.record("expected an insert, got \(rule.action)")
            return
        }
        switch (place, anchor) {
        case ("before", .before(let step)), ("after", .after(let step)):
            #expect(step.value == "persist")
        default:
            Issue.record("wrong anchor \(anchor) for \(place)")
        }
        #expect(steps.map(\.value) == ["notify", "custom-step"])
    }

    @Test func rulesInBlockStyle() throws {
        let (fixture, _) = rules(
            "  - name: block-rule",
            "    when:",
            "      state: restored",
            "      product: \"com.example.*\"",
            "    do:",
            "      - download",
            "      - finish")
        let result = fixture.load()
        expectClean(result)
        #expect(result.catalog?.rules.first?.condition.state?.value == .restored)
        #expect(result.catalog?.rules.first?.condition.product?.value == "com.example.*")
        if case .replace(let steps)? = result.catalog?.rules.first?.action {
            #expect(steps.map(\.value) == ["download", "finish"])
        } else {
            Issue.record("expected `do`")
        }
    }

    // MARK: Missing pieces

    @Test func aRuleWithoutWhen() throws {
        let (fixture, first) = rules("  - name: no-when", "    do: [finish]")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", first, 5)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: first, 5, mentions: ["this rule is missing 'when'", "state: failed"])
        #expect(result.catalog?.rules.isEmpty == true)
    }

    @Test func aRuleWithoutAName() throws {
        let (fixture, first) = rules("  - when: {state: failed}", "    do: [finish]")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", first, 5)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: first, 5, mentions: ["this rule is missing 'name'", "quiet-cancel"])
    }

    @Test func aRuleThatChangesNothing() throws {
        let (fixture, first) = rules("  - name: idle", "    when: {state: failed}")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", first, 5)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: first, 5, mentions: ["changes nothing", "`do:", "`add:"])
    }

    @Test func anEmptyWhenWouldMatchEveryPlan() throws {
        let (fixture, first) = rules("  - name: all", "    when: {}", "    do: [finish]")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", first + 1, 11)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: first + 1, 11, mentions: ["'when' is empty", "every plan"])
    }

    @Test func anEmptyDo() throws {
        let (fixture, first) = rules("  - name: nothing", "    when: {state: failed}", "    do: []")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", first + 2, 9)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: first + 2, 9, mentions: ["'do' lists no steps", "[notify, finish]"])
    }

    @Test func doMustBeAList() throws {
        let (fixture, first) = rules("  - name: single", "    when: {state: failed}", "    do: finish")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("wrong-kind", first + 2, 9)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: first + 2, 9, mentions: ["'do' should be a list"])
    }

    @Test func addNeedsStepsAndAPlace() throws {
        let (fixture, first) = rules("  - name: add-nothing", "    when: {state: failed}", "    add: {}")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", first + 2, 10), ("missing-key", first + 2, 10)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: first + 2, 10, mentions: ["'add' is missing 'steps'"])
        #expect(result.diagnostics.contains { $0.message.mentions("`before: STEP` or `after: STEP`") })
    }

    // MARK: Conflicts

    @Test func bothDoAndAdd() throws {
        let (fixture, first) = rules(
            "  - name: both",
            "    when: {state: failed}",
            "    do: [finish]",
            "    add: {after: finish, steps: [notify]}")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("not-applicable", first + 3, 5)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "not-applicable", at: first + 3, 5, mentions: ["either replaces plans (`do`) or inserts steps (`add`), not both"])
        expectNote(diagnostic, at: first + 2, 5, mentions: ["'do' is here"])
        #expect(result.catalog?.rules.isEmpty == true)
    }

    @Test func addWithBeforeAndAfter() throws {
        let (fixture, first) = rules(
            "  - name: both-places",
            "    when: {state: purchased}",
            "    add: {before: persist, after: unlock, steps: [notify]}")
        let result = fixture.load()
        let after = column(of: "after:", in: fixture)
        let before = column(of: "before:", in: fixture)
        expectExactly(result.diagnostics, [("not-applicable", first + 2, after)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "not-applicable", at: first + 2, after, mentions: ["either `before` or `after`, not both"])
        expectNote(diagnostic, at: first + 2, before, mentions: ["'before' is here"])
    }

    @Test(arguments: ["purchased", "restored", "purchasing", "deferred"])
    func anErrorMatchesOnlyFailedTransactions(state: String) throws {
        let (fixture, first) = rules(
            "  - name: odd",
            "    when: {state: \(state), error: payment-cancelled}",
            "    do: [finish]")
        let result = fixture.load()
        let errorKey = column(of: "error:", in: fixture)
        expectExactly(result.diagnostics, [("not-applicable", first + 1, errorKey)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "not-applicable", at: first + 1, errorKey,
            mentions: ["'error' matches failed transactions", "state is \(state)"])
        expectNote(diagnostic, at: first + 1, 19, mentions: ["state is set here"])
    }

    @Test func anErrorWithoutAStateIsFine() throws {
        let (fixture, _) = rules("  - name: any-cancel", "    when: {error: network-error}", "    do: [present-error, finish]")
        let result = fixture.load()
        expectClean(result)
        #expect(result.catalog?.rules.first?.condition.error?.value == .networkError)
    }

    // MARK: Misspelled values

    @Test(arguments: [
        ("state", "purchsed", "purchased", "transaction state"),
        ("type", "consumible", "consumable", "product type"),
        ("delivery", "sever", "server", "delivery model"),
        ("error", "payment-canceled", "payment-cancelled", "store error"),
    ])
    func misspelledConditionValuesSuggestTheNearest(key: String, value: String, nearest: String, what: String) throws {
        let (fixture, first) = rules("  - name: typo", "    when: {\(key): \(value)}", "    do: [finish]")
        let result = fixture.load()
        let column = column(of: value, in: fixture)
        expectExactly(result.diagnostics, [("invalid-value", first + 1, column)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: first + 1, column, mentions: [what, "did you mean '\(nearest)'?"])
    }

    @Test func anUnknownConditionKey() throws {
        let (fixture, first) = rules("  - name: typo", "    when: {stat: failed}", "    do: [finish]")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("unknown-key", first + 1, 12)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: first + 1, 12, mentions: ["'when'", "did you mean 'state'?"])
    }

    @Test func anUnknownRuleKey() throws {
        let (fixture, first) = rules("  - name: typo", "    when: {state: failed}", "    actions: [finish]", "    do: [finish]")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("unknown-key", first + 2, 5)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: first + 2, 5, mentions: ["a rule", "expected one of: name, when, do, add"])
    }

    @Test func ruleAndStepNamesAreSymbols() throws {
        let (fixture, first) = rules("  - name: Quiet Cancel", "    when: {state: failed}", "    do: [finish, \"2nd\"]")
        let result = fixture.load()
        let step = column(of: "\"2nd\"", in: fixture)
        expectExactly(result.diagnostics, [("invalid-name", first, 11), ("invalid-name", first + 2, step)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: first, 11, mentions: ["the rule name 'Quiet Cancel'", "a space"])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: first + 2, step, mentions: ["the step name '2nd'", "starts with a letter"])
    }

    @Test func rulesMustBeAList() throws {
        var fixture = CatalogFixture()
        fixture.trailer = ["rules: {name: x}"]
        let result = fixture.load()
        expectExactly(result.diagnostics, [("wrong-kind", fixture.trailerLine, 8)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: fixture.trailerLine, 8, mentions: ["'rules' should be a list"])
    }

    @Test func aRuleMustBeAMapping() throws {
        let (fixture, first) = rules("  - quiet-cancel")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("wrong-kind", first, 5)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: first, 5, mentions: ["a rule should be a mapping"])
    }

    // MARK: Product patterns

    @Test(arguments: ["*", "com.example.*", "*.item", "com.*.item", "com.example.shop.item", "*shop*", "com.example.shop.item*"])
    func patternsThatMatchAProductAreFine(pattern: String) throws {
        let (fixture, _) = rules("  - name: scoped", "    when: {product: \"\(pattern)\"}", "    do: [finish]")
        let result = fixture.load()
        expectClean(result)
        #expect(result.catalog?.rules.first?.condition.product?.value == pattern)
    }

    @Test func anExactIDThatMatchesNothingIsAWarningWithASuggestion() throws {
        let (fixture, first) = rules("  - name: scoped", "    when: {product: com.example.shop.iten}", "    do: [finish]")
        let result = fixture.load()
        let column = column(of: "com.example.shop.iten", in: fixture)
        expectExactly(result.diagnostics, [("unmatched-pattern", first + 1, column)])
        try expectDiagnostic(
            result.diagnostics, "unmatched-pattern", at: first + 1, column, severity: .warning,
            mentions: ["no product has the id 'com.example.shop.iten'", "never applies", "did you mean 'com.example.shop.item'?"])
        #expect(!result.hasErrors)
        #expect(result.catalog?.rules.count == 1)
    }

    @Test(arguments: ["com.other.*", "*.coins", "com.example.shop.item.*", "org.example.*"])
    func aGlobThatMatchesNothingIsAWarning(pattern: String) throws {
        let (fixture, first) = rules("  - name: scoped", "    when: {product: \"\(pattern)\"}", "    do: [finish]")
        let result = fixture.load()
        let column = column(of: "\"\(pattern)\"", in: fixture)
        expectExactly(result.diagnostics, [("unmatched-pattern", first + 1, column)])
        try expectDiagnostic(
            result.diagnostics, "unmatched-pattern", at: first + 1, column, severity: .warning,
            mentions: ["the pattern '\(pattern)' matches no product"])
    }

    @Test func aPatternMatchingAProductInAFragmentIsFine() throws {
        var fixture = CatalogFixture().addingHeader("include: [more.yaml]")
        fixture.trailer = ["rules:", "  - name: scoped", "    when: {product: \"com.example.shop.more*\"}", "    do: [finish]"]
        let result = fixture.load(["more.yaml": IncludesTests.fragment(id: "com.example.shop.more", name: "More")])
        expectClean(result)
    }

    @Test func aPatternWithInvalidCharacters() throws {
        let (fixture, first) = rules("  - name: scoped", "    when: {product: \"com.example/*\"}", "    do: [finish]")
        let result = fixture.load()
        let column = column(of: "\"com.example/*\"", in: fixture)
        expectExactly(result.diagnostics, [("invalid-name", first + 1, column)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: first + 1, column, mentions: ["the product pattern", "'/'"])
    }

    @Test func globMatching() {
        #expect(Glob.matches("*", ""))
        #expect(Glob.matches("*", "anything"))
        #expect(Glob.matches("a*c", "abc") && Glob.matches("a*c", "ac") && Glob.matches("a*c", "abbbc"))
        #expect(!Glob.matches("a*c", "abcd"))
        #expect(Glob.matches("a*b*c", "a-b-b-c"))
        #expect(!Glob.matches("abc", "abcd") && !Glob.matches("abcd", "abc"))
        #expect(Glob.matches("**", "x"))
    }
}
