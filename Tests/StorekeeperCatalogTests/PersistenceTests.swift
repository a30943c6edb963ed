import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// `persistence`, `restore` and the `defaults` that supply them.
@Suite struct PersistenceTests {
    // MARK: persistence

    @Test(arguments: PersistenceStrategy.allCases)
    func theShortFormNamesTheStrategy(strategy: PersistenceStrategy) throws {
        let kind: CatalogFixture.Kind = strategy == .appState ? .consumable : .nonConsumable
        let fixture = CatalogFixture(kind).with("persistence", strategy.rawValue)
        let product = try onlyProduct(fixture.load())
        #expect(product.persistence.strategy.value == strategy)
        #expect(product.persistence.record == nil)
        #expect(product.persistence.effectiveRecord == .flag)
        #expect(product.persistence.location.line == fixture.line("persistence"))
        #expect(!product.persistence.isInherited)
    }

    @Test(arguments: [("user-defaults", "receipt", RecordKind.receipt), ("icloud", "flag", .flag), ("icloud", "receipt", .receipt)])
    func theLongFormHoldsARecord(strategy: String, record: String, kind: RecordKind) throws {
        let product = try onlyProduct(CatalogFixture().with("persistence", "{strategy: \(strategy), record: \(record)}").load())
        #expect(product.persistence.strategy.value.rawValue == strategy)
        #expect(product.persistence.record?.value == kind)
        #expect(product.persistence.effectiveRecord == kind)
    }

    @Test func theLongFormWithoutARecordMeansAFlag() throws {
        let product = try onlyProduct(CatalogFixture().with("persistence", "{strategy: user-defaults}").load())
        #expect(product.persistence.strategy.value == .userDefaults)
        #expect(product.persistence.record == nil)
        #expect(product.persistence.effectiveRecord == .flag)
    }

    @Test(arguments: ["receipt", "server", "app-state"])
    func aRecordAppliesOnlyToUserDefaultsAndICloud(strategy: String) throws {
        let fixture = CatalogFixture().with("persistence", "{strategy: \(strategy), record: flag}")
        let result = fixture.load()
        let column = position(of: "record:", in: fixture.text).column
        expectExactly(result.diagnostics, [("not-applicable", fixture.line("persistence"), column)])
        try expectDiagnostic(
            result.diagnostics, "not-applicable", at: fixture.line("persistence"), column,
            mentions: ["'record' applies to the user-defaults and icloud strategies", "not \(strategy)"])
    }

    @Test func theLongFormNeedsAStrategy() throws {
        let fixture = CatalogFixture().with("persistence", "{record: flag}")
        try expectOnlyAtValue(fixture, "persistence", "missing-key", mentions: ["'persistence' is missing 'strategy'", "strategy: receipt"])
    }

    @Test func aMisspelledStrategySuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("persistence", "reciept")
        try expectOnlyAtValue(
            fixture, "persistence", "invalid-value",
            mentions: ["'reciept' is not a valid persistence strategy", "did you mean 'receipt'?", "user-defaults, icloud"])
    }

    @Test func aMisspelledRecordSuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("persistence", "{strategy: icloud, record: flags}")
        let column = position(of: "flags", in: fixture.text).column
        let result = fixture.load()
        expectExactly(result.diagnostics, [("invalid-value", fixture.line("persistence"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: fixture.line("persistence"), column, mentions: ["did you mean 'flag'?"])
    }

    @Test func anUnknownPersistenceKey() throws {
        let fixture = CatalogFixture().with("persistence", "{strategy: icloud, recrod: flag}")
        let column = position(of: "recrod", in: fixture.text).column
        let result = fixture.load()
        expectExactly(result.diagnostics, [("unknown-key", fixture.line("persistence"), column)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line("persistence"), column, mentions: ["did you mean 'record'?"])
    }

    @Test func aListIsNotAPersistence() throws {
        let fixture = CatalogFixture().with("persistence", "[receipt]")
        try expectOnlyAtValue(fixture, "persistence", "wrong-kind", mentions: ["'persistence'"])
    }

    // MARK: restore

    @Test(arguments: RestorePolicy.allCases)
    func theShortFormNamesThePolicy(policy: RestorePolicy) throws {
        let fixture = CatalogFixture().with("restore", policy.rawValue)
        let product = try onlyProduct(fixture.load())
        #expect(product.restore.policy.value == policy)
        #expect(product.restore.trigger == nil && product.restore.selection == nil)
        #expect(product.restore.effectiveTrigger == .user)
        #expect(product.restore.effectiveSelection == .all)
        #expect(product.restore.location.column == fixture.valueColumn("restore"))
    }

    @Test func theLongFormHoldsTriggerAndSelection() throws {
        let product = try onlyProduct(
            CatalogFixture().with("restore", "{policy: restore-transactions, trigger: launch, selection: user}").load())
        #expect(product.restore.policy.value == .restoreTransactions)
        #expect(product.restore.trigger?.value == .launch)
        #expect(product.restore.effectiveTrigger == .launch)
        #expect(product.restore.selection?.value == .user)
        #expect(product.restore.effectiveSelection == .user)
    }

    @Test func theLongFormDefaultsToAUserTriggerAndAllContent() throws {
        let product = try onlyProduct(CatalogFixture().with("restore", "{policy: receipt-refresh}").load())
        #expect(product.restore.effectiveTrigger == .user)
        #expect(product.restore.effectiveSelection == .all)
    }

    @Test func triggerAndSelectionHaveNoEffectWithPolicyNone() throws {
        let fixture = CatalogFixture().with("restore", "{policy: none, trigger: launch, selection: user}")
        let result = fixture.load()
        let line = fixture.line("restore")
        let trigger = position(of: "trigger:", in: fixture.text).column
        let selection = position(of: "selection:", in: fixture.text).column
        expectExactly(result.diagnostics, [("not-applicable", line, trigger), ("not-applicable", line, selection)])
        try expectDiagnostic(result.diagnostics, "not-applicable", at: line, trigger, mentions: ["'trigger' has no effect", "policy is none"])
        try expectDiagnostic(result.diagnostics, "not-applicable", at: line, selection, mentions: ["'selection' has no effect"])
    }

    @Test func theLongFormNeedsAPolicy() throws {
        let fixture = CatalogFixture().with("restore", "{trigger: user}")
        try expectOnlyAtValue(fixture, "restore", "missing-key", mentions: ["'restore' is missing 'policy'", "policy: receipt-refresh"])
    }

    @Test func aMisspelledPolicySuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("restore", "receipt-refesh")
        try expectOnlyAtValue(fixture, "restore", "invalid-value", mentions: ["restore policy", "did you mean 'receipt-refresh'?"])
    }

    @Test func misspelledTriggerAndSelectionValues() throws {
        let fixture = CatalogFixture().with("restore", "{policy: server, trigger: lunch, selection: al}")
        let result = fixture.load()
        let line = fixture.line("restore")
        let trigger = position(of: "lunch", in: fixture.text).column
        let selection = position(of: "al}", in: fixture.text).column
        expectExactly(result.diagnostics, [("invalid-value", line, trigger), ("invalid-value", line, selection)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: line, trigger, mentions: ["restore trigger", "did you mean 'launch'?"])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: line, selection, mentions: ["restore selection", "did you mean 'all'?"])
    }

    // MARK: defaults

    @Test func productsInheritDeliveryPersistenceAndRestoreFromDefaults() throws {
        let fixture = CatalogFixture()
            .without("delivery", "persistence", "restore")
            .addingHeader(
                "defaults:",
                "  delivery: {model: server, unlocks: [pro]}",
                "  persistence: {strategy: icloud, record: receipt}",
                "  restore: {policy: icloud, trigger: launch}")
        let product = try onlyProduct(fixture.load())
        #expect(product.delivery.isInherited && product.persistence.isInherited && product.restore.isInherited)
        #expect(product.delivery.model.value == .server)
        #expect(product.delivery.unlocks.map(\.value) == ["pro"])
        #expect(product.delivery.location.line == 10 && product.delivery.location.column == 13)
        #expect(product.persistence.strategy.value == .icloud)
        #expect(product.persistence.effectiveRecord == .receipt)
        #expect(product.persistence.location.line == 11)
        #expect(product.restore.policy.value == .icloud)
        #expect(product.restore.effectiveTrigger == .launch)
        #expect(product.restore.location.line == 12)
    }

    @Test func aProductsOwnValueOverridesTheDefault() throws {
        let fixture = CatalogFixture()
            .addingHeader("defaults:", "  delivery: server", "  persistence: server", "  restore: server")
        let product = try onlyProduct(fixture.load())
        #expect(product.delivery.model.value == .builtIn)
        #expect(product.persistence.strategy.value == .receipt)
        #expect(product.restore.policy.value == .receiptRefresh)
        #expect(!product.delivery.isInherited && !product.persistence.isInherited && !product.restore.isInherited)
        #expect(product.delivery.location.line == fixture.line("delivery"))
    }

    @Test func withoutDefaultsAMissingDeliveryIsReportedAtTheProduct() throws {
        let fixture = CatalogFixture().without("delivery")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", fixture.productLine, fixture.productColumn)])
        try expectDiagnostic(
            result.diagnostics, "missing-key", at: fixture.productLine, fixture.productColumn,
            mentions: ["this product is missing 'delivery'", "delivery: built-in", "under `defaults`"])
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func defaultsThatLackTheKeyDoNotHelp() throws {
        let fixture = CatalogFixture().without("restore").addingHeader("defaults:", "  persistence: receipt")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", fixture.productLine, fixture.productColumn)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.productLine, 5, mentions: ["missing 'restore'", "restore: receipt-refresh"])
    }

    @Test func aBrokenDefaultIsReportedOnceAtTheDefaultNotAtEveryProduct() throws {
        // The product leaves delivery to `defaults`, whose value is misspelled:
        // the author must change the default, not the product.
        let fixture = CatalogFixture().without("delivery").addingHeader("defaults:", "  delivery: builtin")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("invalid-value", 10, 13)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: 10, 13, mentions: ["did you mean 'built-in'?"])
    }

    @Test func anUnknownDefaultsKeySuggestsTheNearest() throws {
        let fixture = CatalogFixture().addingHeader("defaults:", "  restor: none")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("unknown-key", 10, 3)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 10, 3, mentions: ["'restor'", "'defaults'", "did you mean 'restore'?"])
    }

    @Test func defaultsMustBeAMapping() throws {
        let fixture = CatalogFixture().addingHeader("defaults: receipt")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("wrong-kind", 9, 11)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 9, 11, mentions: ["'defaults' should be a mapping"])
    }

    /// `defaults` refused whole (a list, a single value, nothing): its error
    /// is the only one, not "missing" at every product that relied on it
    /// (issue 15, item 13), in the catalog file and in fragments.
    @Test(arguments: [
        ["defaults:", "  - persistence: receipt", "  - restore: receipt-refresh", "  - delivery: built-in"],
        ["defaults: receipt"],
        ["defaults:"],
    ])
    func defaultsThatAreNotAMappingAreReportedOnceNotAtEveryProduct(lines: [String]) throws {
        var fixture = CatalogFixture().without("delivery", "persistence", "restore")
        fixture.header += ["include: [more.yaml]"] + lines
        let fragment = """
            products:
              - id: com.example.shop.more
                type: consumable
                reference-name: More
                price: 1
                localizations: {en: {title: More, description: More coins}}
            """
        let result = fixture.load(["more.yaml": fragment])
        #expect(result.diagnostics.map(\.rule) == ["wrong-kind"])
        #expect(result.diagnostics.first?.message.contains("'defaults'") == true)
    }

    @Test func aDefaultFamilySharingSpelledYesIsABooleanSpelling() throws {
        let fixture = CatalogFixture().addingHeader("defaults:", "  family-shareable: yes")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("boolean-spelling", 10, 21)])
        try expectDiagnostic(result.diagnostics, "boolean-spelling", at: 10, 21, mentions: ["write true"])
    }

    @Test func defaultsApplyToProductsInFragments() throws {
        let fixture = CatalogFixture()
            .addingHeader("include: [more.yaml]", "defaults:", "  restore: none")
        let fragment = """
            products:
              - id: com.example.shop.more
                type: consumable
                reference-name: More
                price: 1
                localizations: {en: {title: More, description: More coins}}
                delivery: {model: built-in, grants: {coins: 1}}
                persistence: app-state
            """
        let result = fixture.load(["more.yaml": fragment])
        expectClean(result)
        let more = try #require(result.catalog?.product(id: "com.example.shop.more"))
        #expect(more.restore.isInherited)
        #expect(more.restore.policy.value == RestorePolicy.none)
        #expect(more.restore.location == SourceLocation(file: "catalog.yaml", line: 11, column: 12))
    }
}
