import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperRules
import Testing

/// What the examples of the content rules do not show: notes, messages,
/// thresholds, and the characters the look-alike scan lets through.
@Suite struct ContentRulesTests {
    /// A rule's diagnostics on an example, which must load without errors.
    func check(_ rule: any CatalogRule.Type, _ example: RuleExample, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Diagnostic] {
        let loaded = CatalogLoader(reader: InMemorySourceReader(["example.yaml": example.catalog.text])).load("example.yaml")
        #expect(loaded.diagnostics.filter { $0.severity == .error }.isEmpty, "\(loaded.diagnostics)", sourceLocation: sourceLocation)
        guard let catalog = loaded.catalog else { return [] }
        var report = RuleReport(rule: rule.description)
        rule.init().check(RuleContext(catalog: catalog), into: &report)
        return report.diagnostics
    }

    /// `line:column` of a diagnostic or note.
    func site(_ location: StorekeeperDiagnostics.SourceLocation) -> String { "\(location.line):\(location.column)" }

    /// A non-consumable with the given persistence and restore lines.
    func unlock(persistence: String = "receipt", restore: String = "receipt-refresh", content: String = "") -> String {
        """
          - id: com.example.unlock
            type: non-consumable
            reference-name: Unlock
            price: "2.99"
            localizations: {en-US: {title: Unlock, description: Everything}}
            delivery: {model: built-in, unlocks: [pro]\(content.isEmpty ? "" : ", content: " + content)}
            persistence: \(persistence)
            restore: \(restore)
        """
    }

    // MARK: receipt-minimum-os

    @Test func receiptMinimumOSNotesTheMinimumOS() throws {
        let diagnostics = check(ReceiptMinimumOSRule.self, RuleExample(unlock(), app: #"app: {bundle-id: com.example.app, platforms: [macos], minimum-os: "10.8"}"#))
        let diagnostic = try #require(diagnostics.first)
        // The persistence, and the receipt-refresh restore: neither has a receipt.
        #expect(diagnostics.count == 2)
        #expect(diagnostics.last?.message.contains("`restore-transactions`") == true)
        #expect(diagnostic.message.contains("macOS 10.8") && diagnostic.message.contains(#""10.9""#))
        #expect(diagnostic.notes.map { site($0.location) } == ["2:67"])
    }

    @Test func receiptMinimumOSAppliesOnlyToListedPlatformsWithAMinimum() {
        // iOS 10.8 has a receipt; tvOS is not iOS; no minimum means nothing to compare.
        #expect(check(ReceiptMinimumOSRule.self, RuleExample(unlock(), app: #"app: {bundle-id: com.example.app, minimum-os: "10.8"}"#)).isEmpty)
        #expect(check(ReceiptMinimumOSRule.self, RuleExample(unlock(), app: #"app: {bundle-id: com.example.app, platforms: [tvos], minimum-os: "6.0"}"#)).isEmpty)
        #expect(check(ReceiptMinimumOSRule.self, RuleExample(unlock())).isEmpty)
    }

    // MARK: hosted-content-selection

    @Test func hostedContentIsLargeOverFiftyDecimalMegabytes() {
        func reported(_ size: String) -> Bool {
            !check(HostedContentSelectionRule.self, RuleExample(unlock(restore: "restore-transactions", content: "{source: apple-hosted, size: \(size)}"))).isEmpty
        }
        #expect(!reported("50MB"))
        #expect(!reported("50000000B"))
        #expect(reported("50000001B"))
        #expect(reported("48MiB"))  // 50,331,648 bytes
    }

    @Test func largeHostedContentNotesItsSize() throws {
        let diagnostic = try #require(check(HostedContentSelectionRule.self, RuleExample(unlock(restore: "restore-transactions", content: "{source: apple-hosted, size: 120MB}"))).first)
        #expect(diagnostic.message.contains("120 MB"))
        #expect(diagnostic.notes.map { site($0.location) } == ["13:87"])
    }

    @Test func manyProductsRestoringAllAreReportedOnceWithANoteAtTheFirst() throws {
        let example = try #require(HostedContentSelectionRule.description.triggering.last)
        let diagnostics = check(HostedContentSelectionRule.self, example)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(diagnostic.message.hasPrefix("7 products"))
        #expect(diagnostic.notes.map { site($0.location) } == ["16:14"])
    }

    // MARK: user-defaults-flag

    @Test func userDefaultsFlagNotesTheMacPlatform() throws {
        let diagnostics = check(UserDefaultsFlagRule.self, RuleExample(
            unlock(persistence: "user-defaults", restore: "restore-transactions"),
            app: "app: {bundle-id: com.example.app, platforms: [ios, macos, tvos]}"))
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.notes.map { site($0.location) } == ["2:52"])
    }

    @Test func userDefaultsFlagLeavesNonRenewingSubscriptionsToTheirRule() {
        let pass = """
              - id: com.example.pass
                type: non-renewing-subscription
                reference-name: Season Pass
                price: "9.99"
                duration: P3M
                localizations: {en-US: {title: Season Pass, description: Three months}}
                delivery: {model: built-in, unlocks: [pro]}
                persistence: user-defaults
                restore: icloud
            """
        #expect(check(UserDefaultsFlagRule.self, RuleExample(pass, app: "app: {bundle-id: com.example.app, platforms: [macos]}")).isEmpty)
    }

    // MARK: Subscription groups

    /// An auto-renewable subscription of group `premium`.
    func subscription(_ name: String, level: Int?, period: String = "P1M") -> String {
        """
          - id: com.example.\(name)
            type: auto-renewable-subscription
            reference-name: \(name)
            price: "3.99"
            group: premium\(level.map { "\n    level: \($0)" } ?? "")
            period: \(period)
            localizations: {en-US: {title: Plan, description: A plan}}
            delivery: {model: built-in, unlocks: [pro]}
            persistence: receipt
            restore: receipt-refresh

        """
    }

    @Test func aLevelGapNamesEveryMissingLevelAndNotesTheLevelBefore() throws {
        let diagnostics = check(SubscriptionLevelsRule.self, RuleExample(
            subscription("top", level: nil) + subscription("low", level: 4) + subscription("lower", level: 4, period: "P1Y")))
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(diagnostic.message.contains("skips levels 2 to 3") && diagnostic.message.contains("make com.example.low level 2"))
        #expect(diagnostic.notes.map(\.message) == ["the level before is 1 (the default), of com.example.top"])
    }

    @Test func everyRepeatOfALevelAndPeriodNotesTheFirst() {
        let diagnostics = check(DuplicateSubscriptionPeriodRule.self, RuleExample(
            subscription("a", level: 1) + subscription("b", level: nil) + subscription("c", level: 1) + subscription("d", level: 2)))
        #expect(diagnostics.map { site($0.location) } == ["24:13", "35:13"])
        #expect(diagnostics.flatMap(\.notes).map { site($0.location) } == ["14:13", "14:13"])
    }

    // MARK: display-length

    @Test func lengthsCountGraphemeClusters() {
        // 30 characters, 31 scalars: a decomposed é.
        let title = "Toutes les fonctions de l’app" + "e\u{301}"
        #expect(title.count == 30 && title.unicodeScalars.count == 31)
        #expect(!DisplayLengthRule.isLonger(title, than: 30))
        #expect(DisplayLengthRule.isLonger(title + "!", than: 30))
        #expect(!DisplayLengthRule.isLonger("すべての機能をずっと使えるようにする", than: 30))
    }

    @Test func aOneCharacterTitleIsTooShortEvenInManyScalars() {
        let products = """
              - id: com.example.unlock
                type: non-consumable
                reference-name: Unlock
                price: "2.99"
                localizations: {en-US: {title: "\u{1F1EB}\u{1F1F7}", description: Everything}}
                delivery: {model: built-in, unlocks: [pro]}
                persistence: receipt
                restore: receipt-refresh
            """
        let diagnostics = check(DisplayLengthRule.self, RuleExample(products))
        #expect(diagnostics.map(\.message) == ["the en-US title of com.example.unlock is 1 character long; the App Store needs at least 2"])
    }

    // MARK: look-alike-characters

    func scan(_ text: String) -> [String] {
        LookAlikeScan.findings(in: text).map { $0.message(in: text) }
    }

    @Test func charactersAreNamedByCodePoint() {
        #expect(LookAlikeScan.describe("\u{0420}") == "U+0420 CYRILLIC CAPITAL LETTER ER")
        #expect(LookAlikeScan.describe("\u{FEFF}") == "U+FEFF ZERO WIDTH NO-BREAK SPACE")
        #expect(LookAlikeScan.describe("\u{061C}") == "U+061C ARABIC LETTER MARK")
    }

    @Test func theOddScriptOutIsNamed() {
        // Mostly Cyrillic with a Latin C: the Latin letter is the odd one.
        #expect(scan("Cкидка") == ["mixes Latin and Cyrillic letters in the word 'Cкидка': U+0043 LATIN CAPITAL LETTER C at character 1 is Latin; write the word in Cyrillic letters only"])
        // An invisible character inside a word does not split it.
        #expect(scan("Р\u{200B}ro").count == 2)
    }

    @Test func wordsInDifferentScriptsAndJoinersThatJoinAreAccepted() {
        #expect(scan("Pro Разблокировка").isEmpty)
        #expect(scan("Pro-Ξεκλείδωμα").isEmpty)  // a hyphen separates words
        #expect(scan("همه\u{200C}ی").isEmpty)  // Persian needs the non-joiner
        #expect(scan("\u{1F468}\u{200D}\u{1F4BB}").isEmpty)  // an emoji sequence needs the joiner
        #expect(scan("Pro\u{200D}Pack").count == 1)  // Latin never does
        #expect(scan("Fonctions avancées à vie, 20 µm").isEmpty)  // accents and the micro sign are Latin or common
    }

    @Test func moreProblemsInOneValueAreCounted() throws {
        let products = unlock().replacingOccurrences(of: "reference-name: Unlock", with: "reference-name: \"Рro\u{200B}\u{200B} Unlock\"")
        let diagnostic = try #require(check(LookAlikeCharactersRule.self, RuleExample(products)).first)
        // The most dangerous is named: the invisible character before the mixed scripts.
        #expect(diagnostic.message.hasPrefix("the reference name of com.example.unlock holds U+200B ZERO WIDTH SPACE, an invisible character"))
        #expect(diagnostic.message.hasSuffix("(and 2 more such problems)"))
    }

    @Test func theByteFilterLetsThroughEveryCharacterTheScanLooksFor() {
        var missed: [UInt32] = []
        for value in UInt32(0x80)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let wanted = LookAlikeScan.control(scalar) != nil || [.greek, .cyrillic].contains(LookAlikeScan.scriptRange(scalar))
            if wanted, !LookAlikeCharactersRule.mayHoldLookAlikes("P" + String(scalar) + "o") { missed.append(value) }
        }
        #expect(missed.isEmpty, "\(missed.prefix(10).map { String($0, radix: 16) })")
    }

    @Test func onlyTextsWithSuspectBytesAreScanned() {
        #expect(!LookAlikeCharactersRule.mayHoldLookAlikes("com.example.unlock"))
        #expect(!LookAlikeCharactersRule.mayHoldLookAlikes(""))
        #expect(!LookAlikeCharactersRule.mayHoldLookAlikes("Numérique, ça coûte 2 €"))
        #expect(!LookAlikeCharactersRule.mayHoldLookAlikes("Writer’s Toolkit – “Pro”…"))
        #expect(!LookAlikeCharactersRule.mayHoldLookAlikes("Tiếng Việt"))
        #expect(!LookAlikeCharactersRule.mayHoldLookAlikes("すべての機能"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{200B}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Рro"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Prο"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pièce\u{00AD}s"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("\u{FEFF}Pro"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{061C}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{202E}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{2069}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{180E}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{1F00}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{1C80}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{2DE0}"))
        #expect(LookAlikeCharactersRule.mayHoldLookAlikes("Pro\u{A640}"))
    }
}
