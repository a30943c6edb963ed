import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// Uniqueness of ids and names, and references to declared features,
/// balances and groups.
@Suite struct ReferencesTests {
    /// The fixture with a second product after the first; its lines start at `fixture.trailerLine`.
    func withSecondProduct(id: String = "com.example.shop.second", name: String = "Second") -> CatalogFixture {
        CatalogFixture().addingTrailer(
            "  - id: \(id)",
            "    type: non-consumable",
            "    reference-name: \(name)",
            "    price: 2",
            "    localizations: {en: {title: Second, description: Another}}",
            "    delivery: built-in",
            "    persistence: receipt",
            "    restore: none")
    }

    // MARK: Product ids and reference names

    @Test func aDuplicateIDInOneFileIsReportedAtTheLaterWithANoteAtTheFirst() throws {
        let fixture = withSecondProduct(id: "com.example.shop.item")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("duplicate-id", fixture.trailerLine, 9)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-id", at: fixture.trailerLine, 9, mentions: ["'com.example.shop.item' is already used"])
        expectNote(diagnostic, at: fixture.productLine, 9, mentions: ["first used here"])
        // The first keeps its place in the model; the repeat is left out.
        #expect(result.catalog?.products.count == 1)
        #expect(result.catalog?.products.first?.referenceName.value == "Item")
    }

    @Test func aDuplicateReferenceName() throws {
        let fixture = withSecondProduct(name: "Item")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("duplicate-name", fixture.trailerLine + 2, 21)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "duplicate-name", at: fixture.trailerLine + 2, 21,
            mentions: ["the reference name 'Item' is already used", "unique"])
        expectNote(diagnostic, at: fixture.line("reference-name"), fixture.valueColumn("reference-name"), mentions: ["first used"])
    }

    @Test func aDuplicateReferenceNameAcrossFragments() throws {
        let fixture = CatalogFixture().addingHeader("include: [more.yaml]")
        let result = fixture.load([
            "more.yaml": IncludesTests.fragment(id: "com.example.shop.more", name: "Item"),
        ])
        expectExactly(result.diagnostics, sites: [("duplicate-name", "more.yaml", 4, 21)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-name", at: 4, 21, file: "more.yaml")
        #expect(fixture.line("reference-name") == 13)
        expectNote(diagnostic, at: 13, 21, file: "catalog.yaml")
    }

    @Test func idsOfProductsWithOtherErrorsStillCount() throws {
        // The first product has a bad price, so it is not in the model; its id is still taken.
        let fixture = withSecondProduct(id: "com.example.shop.item").with("price", "free")
        let result = fixture.load()
        expectExactly(result.diagnostics, [
            ("invalid-price", fixture.line("price"), fixture.valueColumn("price")),
            ("duplicate-id", fixture.trailerLine, 9),
        ])
    }

    // MARK: Declared names used twice

    @Test func aFeatureDeclaredTwice() throws {
        var fixture = CatalogFixture()
        fixture.header[3] = "features: [pro, extra, pro]"
        let result = fixture.load()
        expectExactly(result.diagnostics, [("duplicate-name", 4, 24)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-name", at: 4, 24, mentions: ["the feature 'pro' is declared twice"])
        expectNote(diagnostic, at: 4, 12, mentions: ["first declared"])
        #expect(result.catalog?.features.map(\.value) == ["pro", "extra"])
    }

    @Test func aBalanceDeclaredAgainInAFragment() throws {
        let result = CatalogFixture().addingHeader("include: [more.yaml]").load([
            "more.yaml": "balances: [gems]\n" + IncludesTests.fragment(id: "com.example.shop.more", name: "More"),
        ])
        expectExactly(result.diagnostics, sites: [("duplicate-name", "more.yaml", 1, 12)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-name", at: 1, 12, file: "more.yaml", mentions: ["the balance 'gems' is declared twice"])
        expectNote(diagnostic, at: 5, 19, file: "catalog.yaml")
    }

    @Test func aGroupDeclaredAgainInAFragment() throws {
        let result = CatalogFixture().addingHeader("include: [more.yaml]").load([
            "more.yaml": "groups:\n  premium: {name: Premium Again}\n" + IncludesTests.fragment(id: "com.example.shop.more", name: "More"),
        ])
        expectExactly(result.diagnostics, sites: [("duplicate-name", "more.yaml", 2, 3)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-name", at: 2, 3, file: "more.yaml", mentions: ["the group 'premium' is declared twice"])
        expectNote(diagnostic, at: 7, 3, file: "catalog.yaml")
        #expect(result.catalog?.groups.map(\.name.value) == ["Premium"])
    }

    @Test func aRuleNameUsedTwiceAcrossFiles() throws {
        let rule = ["rules:", "  - name: quiet-cancel", "    when: {state: failed, error: payment-cancelled}", "    do: [finish]"]
        var fixture = CatalogFixture().addingHeader("include: [more.yaml]")
        fixture.trailer = rule
        let result = fixture.load(["more.yaml": rule.joined(separator: "\n") + "\n"])
        expectExactly(result.diagnostics, sites: [("duplicate-name", "more.yaml", 2, 11)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-name", at: 2, 11, file: "more.yaml", mentions: ["the rule name 'quiet-cancel' is already used"])
        expectNote(diagnostic, at: fixture.trailerLine + 1, 11, file: "catalog.yaml")
    }

    @Test func ruleNamesOfRulesWithOtherErrorsStillCount() throws {
        var fixture = CatalogFixture()
        fixture.trailer = [
            "rules:",
            "  - name: quiet",
            "    when: {state: faild}",
            "    do: [finish]",
            "  - name: quiet",
            "    when: {state: failed}",
            "    do: [finish]",
        ]
        let result = fixture.load()
        let first = fixture.trailerLine + 1
        expectExactly(result.diagnostics, [("invalid-value", first + 1, 19), ("duplicate-name", first + 3, 11)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-name", at: first + 3, 11)
        expectNote(diagnostic, at: first, 11)
    }

    // MARK: References to undeclared names

    @Test func anUndeclaredFeatureSuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("delivery", "{model: built-in, unlocks: [pro, exta]}")
        let result = fixture.load()
        let column = position(of: "exta", in: fixture.text).column
        expectExactly(result.diagnostics, [("undeclared-reference", fixture.line("delivery"), column)])
        try expectDiagnostic(
            result.diagnostics, "undeclared-reference", at: fixture.line("delivery"), column,
            mentions: ["the feature 'exta' is not declared", "did you mean 'extra'?"])
    }

    @Test func anUndeclaredFeatureWithNothingCloseSaysWhereToDeclareIt() throws {
        let fixture = CatalogFixture().with("delivery", "{model: built-in, unlocks: [telescope]}")
        let result = fixture.load()
        let column = position(of: "telescope", in: fixture.text).column
        expectExactly(result.diagnostics, [("undeclared-reference", fixture.line("delivery"), column)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "undeclared-reference", at: fixture.line("delivery"), column,
            mentions: ["'telescope' is not declared", "declare it under `features`"])
        #expect(!diagnostic.message.mentions("did you mean"))
    }

    @Test func anUndeclaredBalanceSuggestsTheNearest() throws {
        let fixture = CatalogFixture(.consumable).with("delivery", "{model: built-in, grants: {gem: 3}}")
        let result = fixture.load()
        let column = position(of: "gem:", in: fixture.text).column
        expectExactly(result.diagnostics, [("undeclared-reference", fixture.line("delivery"), column)])
        try expectDiagnostic(
            result.diagnostics, "undeclared-reference", at: fixture.line("delivery"), column,
            mentions: ["the balance 'gem' is not declared", "did you mean 'gems'?"])
    }

    @Test func anUndeclaredBalanceWithNoBalancesAtAll() throws {
        var fixture = CatalogFixture(.consumable)
        fixture.header[4] = "# no balances"
        let result = fixture.load()
        let column = position(of: "coins:", in: fixture.text).column
        expectExactly(result.diagnostics, [("undeclared-reference", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "undeclared-reference", at: fixture.line("delivery"), column, mentions: ["declare it under `balances`"])
    }

    @Test func anUndeclaredGroupWithNoGroupsAtAll() throws {
        var fixture = CatalogFixture(.autoRenewable)
        fixture.header = Array(fixture.header[0..<5])
        let result = fixture.load()
        expectExactly(result.diagnostics, [("undeclared-reference", fixture.line("group"), fixture.valueColumn("group"))])
        try expectDiagnostic(
            result.diagnostics, "undeclared-reference", at: fixture.line("group"), fixture.valueColumn("group"),
            mentions: ["the group 'premium' is not declared", "declare it under `groups`"])
    }

    @Test func referencesInDefaultsAreChecked() throws {
        let fixture = CatalogFixture().without("delivery").addingHeader("defaults:", "  delivery: {model: server, unlocks: [prro]}")
        let result = fixture.load()
        #expect(position(of: "prro", in: fixture.text) == (10, 39))
        expectExactly(result.diagnostics, [("undeclared-reference", 10, 39)])
        try expectDiagnostic(result.diagnostics, "undeclared-reference", at: 10, 39, mentions: ["did you mean 'pro'?"])
    }

    @Test func namesDeclaredInAFragmentServeTheWholeCatalog() throws {
        // The catalog's product uses a feature only the fragment declares, and the
        // fragment's product uses the catalog's group.
        let fragment = """
            features: [bonus]
            products:
              - id: com.example.shop.sub
                type: auto-renewable-subscription
                reference-name: Sub
                price: 1
                group: premium
                period: P1Y
                localizations: {en: {title: Sub, description: Subscribe}}
                delivery: {model: built-in, unlocks: [pro]}
                persistence: receipt
                restore: receipt-refresh

            """
        let result = CatalogFixture().with("delivery", "{model: built-in, unlocks: [bonus]}").addingHeader("include: [more.yaml]").load(["more.yaml": fragment])
        expectClean(result)
        #expect(result.catalog?.products.count == 2)
    }

    @Test func aFeatureIsNotABalance() throws {
        // `pro` is a feature; granting it is an undeclared balance.
        let fixture = CatalogFixture(.consumable).with("delivery", "{model: built-in, grants: {pro: 1}}")
        let result = fixture.load()
        let column = position(of: "pro: 1", in: fixture.text).column
        expectExactly(result.diagnostics, [("undeclared-reference", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "undeclared-reference", at: fixture.line("delivery"), column, mentions: ["the balance 'pro'"])
    }
}
