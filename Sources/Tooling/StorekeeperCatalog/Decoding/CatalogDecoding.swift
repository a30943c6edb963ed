import StorekeeperDiagnostics
import StorekeeperYAML

extension DecodingRuleIDs {
    /// The ids a catalog's readers report with (``CatalogRuleID``).
    static let catalog = DecodingRuleIDs(
        unknownKey: CatalogRuleID.unknownKey, missingKey: CatalogRuleID.missingKey, wrongKind: CatalogRuleID.wrongKind,
        malformed: CatalogRuleID.wrongKind, invalidValue: CatalogRuleID.invalidValue, outOfRange: CatalogRuleID.outOfRange,
        booleanSpelling: CatalogRuleID.booleanSpelling, tooManyProblems: CatalogRuleID.tooManyProblems)
}

extension YAMLDecodingContext {
    /// A context for decoding a catalog: its ids, and the ceiling of
    /// ``DiagnosticCap``, which the policy rules share.
    static func catalog() -> YAMLDecodingContext {
        YAMLDecodingContext(rules: .catalog, limit: DiagnosticCap.limit, scope: "a catalog")
    }

    /// One of an enumeration's spellings, with the nearest suggested when wrong.
    mutating func enumeration<E: CatalogEnum>(_ node: YAMLNode, _ what: @autoclosure () -> String, as type: E.Type = E.self) -> Located<E>? {
        // Matched without making a String first: every product has several enumerations.
        if let value = node.key(in: E.spellings) { return Located(value, at: node.range) }
        guard let text = text(node, what(), example: E.allCases.first?.rawValue ?? "") else { return nil }
        invalidChoice(text, among: E.allCases.map(\.rawValue), what: what(), at: node)
        return nil
    }
}

extension ScalarReading {
    /// The most digits ``smallWholeNumber(_:)`` reads: 18 always fit an `Int`.
    static let mostDigits = 18

    /// Digits only, no sign, at most ``mostDigits`` of them: a catalog's
    /// `format`, the parts of a version and of a price.
    static func smallWholeNumber(_ text: String) -> Int? {
        guard text.utf8.count <= mostDigits, case let value?? = wholeNumber(text) else { return nil }
        return Int(value)
    }
}
