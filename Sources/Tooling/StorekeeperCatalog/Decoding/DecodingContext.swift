import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// Diagnostics with a ceiling: a hostile file (a million duplicate names)
/// must not make a million diagnostics. Past `limit` they are counted, not
/// kept, and one more diagnostic says how many were left out; errors are
/// counted either way, so nothing is taken for valid because it went unsaid.
/// The ceiling is ``DiagnosticCap``'s, which the policy rules share.
struct DiagnosticList {
    static let limit = DiagnosticCap.limit
    private var cap = DiagnosticCap()
    /// Errors reported, kept or not.
    private(set) var errorCount = 0

    /// The diagnostics kept, in the order reported.
    var all: [Diagnostic] { cap.kept }
    var count: Int { cap.kept.count }

    mutating func append(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .error { errorCount += 1 }
        cap.append(diagnostic)
    }

    mutating func append(contentsOf diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { append(diagnostic) }
    }

    /// Changes each diagnostic kept from position `start` (a `count` taken
    /// earlier) on.
    mutating func update(from start: Int, _ change: (inout Diagnostic) -> Void) {
        cap.updateKept(from: start, change)
    }

    /// Everything `other` reported (a file's streamed products, decoded with
    /// a list of their own), those it left out still counted.
    mutating func append(contentsOf other: DiagnosticList) {
        errorCount += other.errorCount
        cap.append(contentsOf: other.cap)
    }

    /// Everything kept, and a last word on what was not.
    func finished(file: String) -> [Diagnostic] {
        guard cap.leftOutCount > 0 else { return cap.kept }
        // The highest severity left out: warnings alone past the cap must not fail a run.
        return cap.kept + [Diagnostic(
            cap.highestLeftOut ?? .error, rule: CatalogRuleID.tooManyProblems,
            "\(cap.leftOutCount) more problems (\(cap.leftOutBySeverity)) were found and not listed (at most \(Self.limit) are listed for a catalog); fix these and run again",
            at: SourceLocation(file: file, line: 1, column: 1))]
    }
}

/// Collects diagnostics while decoding and offers the typed readers every
/// decoder uses. A reader that fails reports why (at the value to change)
/// and returns nil; decoding goes on, so one run reports every problem.
struct DecodingContext {
    var diagnostics = DiagnosticList()
    /// Nodes standing in for unresolved aliases met while decoding: a value
    /// that comes from one is missing, so what holds it is not valid.
    var placeholdersMet = 0
    /// Unknown keys that look like a typo of a known one, with the key they
    /// suggest: a missing key that a typo in the same mapping suggests is
    /// the same mistake, reported once (as the typo).
    private var typos = TypoIndex()

    // MARK: Reporting

    mutating func report(_ severity: Severity, _ rule: String, _ message: String, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(severity, rule: rule, message, at: node.range, notes: notes))
    }

    mutating func error(_ rule: String, _ message: String, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
        report(.error, rule, message, at: node, notes: notes)
    }

    mutating func error<T>(_ rule: String, _ message: String, at value: Located<T>, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(.error, rule: rule, message, at: value.range, notes: notes))
    }

    /// An unknown key, with the nearest known key suggested (or the list of them).
    /// A key with no value at all (no `:`) in a flow mapping is most often the
    /// rest of the value before it, cut at a comma: that is said, with the fix.
    mutating func unknownKey(_ key: YAMLNode, value: YAMLNode? = nil, in place: String, known: [String]) {
        let text = key.text ?? ""
        var message = "unknown key '\(text)' in \(place)"
        if let value, Self.isCutAtComma(value) {
            message += "; it has no ':' and no value: in a flow mapping ({...}) a comma ends a plain value, so if '\(text)' "
                + "belongs to the value before it, quote that value (\"like this, with its comma\"); the keys are: \(known.joined(separator: ", "))"
            error(CatalogRuleID.unknownKey, message, at: key)
            return
        }
        if let nearest = Suggestion.nearest(to: text, in: known) {
            message += "; did you mean '\(nearest)'?"
            typos.record(nearest, at: key.range)
        } else {
            message += "; expected one of: \(known.joined(separator: ", "))"
        }
        error(CatalogRuleID.unknownKey, message, at: key)
    }

    /// Whether `value` is the empty value YAML gives a key written without a
    /// `:` in a flow mapping: a plain empty scalar of no width.
    private static func isCutAtComma(_ value: YAMLNode) -> Bool {
        let range = value.range
        return value.kind == .scalar && value.scalarStyle == .plain && value.text?.isEmpty == true
            && range.start.line == range.end.line && range.start.column == range.end.column
    }

    /// A required key that a mapping lacks, reported at the mapping.
    mutating func missing(_ key: String, in mapping: YAMLNode, of place: String, example: String) {
        guard !hasTypo(of: key, in: mapping) else { return }
        error(CatalogRuleID.missingKey, "\(place) is missing '\(key)'; add `\(key): \(example)`", at: mapping)
    }

    /// Whether an unknown key inside `mapping` was reported as a typo of `key`.
    func hasTypo(of key: String, in mapping: YAMLNode) -> Bool {
        hasTypo(of: key, in: mapping.range)
    }

    /// Whether an unknown key inside `range` was reported as a typo of `key`.
    func hasTypo(of key: String, in range: SourceRange) -> Bool {
        typos.contains(key, in: range)
    }

    // MARK: Kinds

    /// Whether the node is a mapping; reports otherwise.
    mutating func expectMapping(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Bool {
        expect(node, .mapping, what())
    }

    /// Whether the node is a sequence; reports otherwise.
    mutating func expectSequence(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Bool {
        expect(node, .sequence, what())
    }

    private mutating func expect(_ node: YAMLNode, _ kind: YAMLNode.Kind, _ what: @autoclosure () -> String) -> Bool {
        if node.kind == kind { return true }
        if node.isPlaceholder {
            placeholdersMet += 1
            return false
        }
        let what = what()
        if node.isNull {
            error(CatalogRuleID.wrongKind, "\(what) has no value; it should be \(kind)", at: node)
        } else {
            error(CatalogRuleID.wrongKind, "\(what) should be \(kind), not \(node.kind)", at: node)
        }
        return false
    }

    /// The text of a scalar that is not null; reports a list, a mapping or an empty value.
    mutating func text(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> String? {
        if node.isPlaceholder {
            placeholdersMet += 1
            return nil
        }
        guard node.kind == .scalar, let text = node.text else {
            let what = what(), example = example()
            error(CatalogRuleID.wrongKind, "\(what) should be a single value such as \(example), not \(node.kind)", at: node)
            return nil
        }
        if node.isNull {
            error(CatalogRuleID.wrongKind, "\(what()) has no value; write one such as \(example())", at: node)
            return nil
        }
        return text
    }

    // MARK: Values

    /// A non-empty string.
    mutating func string(
        _ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String, nonEmpty: Bool = false
    ) -> Located<String>? {
        guard let text = text(node, what(), example: example()) else { return nil }
        if nonEmpty, text.isEmpty {
            error(CatalogRuleID.wrongKind, "\(what()) is empty; write one such as \(example())", at: node)
            return nil
        }
        return Located(text, at: node.range)
    }

    /// `true` or `false`, unquoted.
    mutating func bool(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Located<Bool>? {
        guard let text = text(node, what(), example: "true or false") else { return nil }
        switch ScalarReading.boolean(node) {
        case .value(let value):
            return Located(value, at: node.range)
        case .yaml11(let meant):
            error(CatalogRuleID.booleanSpelling, "'\(text)' is not a boolean in YAML 1.2 (some tools read it as \(meant), others as text); write \(meant)", at: node)
        case .quoted(let spelt):
            error(CatalogRuleID.wrongKind, "\(what()) is the text \"\(text)\" in quotes; write \(spelt) without quotes for a boolean", at: node)
        case .notBoolean:
            error(CatalogRuleID.wrongKind, "\(what()) must be true or false, not '\(text)'", at: node)
        }
        return nil
    }

    /// A whole number in a range, unquoted.
    mutating func integer(_ node: YAMLNode, _ what: @autoclosure () -> String, in range: ClosedRange<Int>) -> Located<Int>? {
        guard let text = text(node, what(), example: "\(range.lowerBound)") else { return nil }
        // More than 18 digits is not a whole number here: what an `Int` surely holds.
        let reading = text.utf8.count <= Self.mostDigits ? ScalarReading.wholeNumber(node) : .notANumber
        switch reading {
        case .notANumber, .tooLarge:
            error(CatalogRuleID.wrongKind, "\(what()) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", at: node)
        case .quoted(let value):
            error(CatalogRuleID.wrongKind, "\(what()) is the text \"\(text)\" in quotes; write \(value) without quotes for a number", at: node)
        case .tagged(let value, let tag):
            error(CatalogRuleID.wrongKind, "\(what()) is tagged \(tag); write \(value) as a plain number, untagged", at: node)
        case .leadingZero(let value):
            error(CatalogRuleID.wrongKind, "\(what()) '\(text)' starts with 0, which some YAML tools read as an octal number; write \(value)", at: node)
        case .value(let digits):
            let value = Int(digits)
            guard range.contains(value) else {
                error(CatalogRuleID.outOfRange, "\(what()) is \(value); it must be from \(range.lowerBound) to \(range.upperBound)", at: node)
                return nil
            }
            return Located(value, at: node.range)
        }
        return nil
    }

    /// One of an enumeration's spellings, with the nearest suggested when wrong.
    mutating func enumeration<E: CatalogEnum>(_ node: YAMLNode, _ what: @autoclosure () -> String, as type: E.Type = E.self) -> Located<E>? {
        if let value = node.key(in: E.spellings) { return Located(value, at: node.range) }
        guard let text = text(node, what(), example: E.allCases.first?.rawValue ?? "") else { return nil }
        let names = E.allCases.map(\.rawValue)
        var message = "'\(text)' is not a valid \(what())"
        if let nearest = Suggestion.nearest(to: text, in: names) { message += "; did you mean '\(nearest)'?" }
        message += " (expected one of: \(names.joined(separator: ", ")))"
        error(CatalogRuleID.invalidValue, message, at: node)
        return nil
    }

    /// A list of strings (a single value is not accepted as a list of one).
    mutating func stringList(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> [Located<String>]? {
        guard expectSequence(node, what()) else { return nil }
        var values: [Located<String>] = []
        values.reserveCapacity(node.items.count)
        for item in node.items {
            if let value = string(item, "an entry of \(what())", example: example()) { values.append(value) }
        }
        return values
    }

    /// The most digits a whole number may have: 18 always fit an `Int`.
    static let mostDigits = 18

    /// Digits only, no sign, at most ``mostDigits`` of them.
    static func wholeNumber(_ text: String) -> Int? {
        guard text.utf8.count <= mostDigits, case let value?? = ScalarReading.wholeNumber(text) else { return nil }
        return Int(value)
    }
}
