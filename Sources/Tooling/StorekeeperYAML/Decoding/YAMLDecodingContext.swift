import StorekeeperCore
package import StorekeeperDiagnostics

/// What every decoder of located YAML (a catalog, a scenario,
/// storekeeper.yml) keeps while it reads a node tree: the diagnostics, under
/// a ceiling; the placeholders met; the keys taken for typos. And the typed
/// readers they share, worded the same for every kind of file, with the
/// rule ids of the file's own vocabulary (``DecodingRuleIDs``).
///
/// A reader that fails reports why, at the value to change, and returns nil;
/// decoding goes on, so that one run reports every problem. What only one
/// kind of file reads (a catalog's enumerations, a scenario's names) is an
/// extension in that decoder's module.
package struct YAMLDecodingContext {
    /// The ids the readers report with.
    private let rules: DecodingRuleIDs
    /// What the ceiling applies to, for the last word: `a catalog`.
    private let scope: String
    /// Whether the last word counts what was left out by severity: `(1 error, 4 warnings)`.
    private let countsLeftOutBySeverity: Bool
    /// What was reported, up to the ceiling, and how many errors.
    package var diagnostics: DiagnosticList
    /// Nodes standing in for aliases the YAML layer could not resolve (and
    /// reported): a value that comes from one is missing, so what holds it is
    /// not valid, but there is nothing more to say about it.
    package private(set) var placeholdersMet = 0
    /// Unknown keys that look like a typo of a known one, with the key they
    /// suggest: a missing key that a typo in the same mapping suggests is
    /// the same mistake, reported once (as the typo).
    private var typos = TypoIndex()

    /// A context that reports with `rules` and lists at most `limit`
    /// diagnostics for one `scope` (`a catalog`), saying past it how many
    /// more there were, by severity unless `countsLeftOutBySeverity` is false.
    package init(rules: DecodingRuleIDs, limit: Int, scope: String, countsLeftOutBySeverity: Bool = true) {
        self.rules = rules
        self.scope = scope
        self.countsLeftOutBySeverity = countsLeftOutBySeverity
        diagnostics = DiagnosticList(limit: limit)
    }

    // MARK: Reporting

    /// Reports a problem at a node.
    package mutating func report(_ severity: Severity, _ rule: String, _ message: String, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
        report(severity, rule, message, at: node.range, notes: notes)
    }

    /// Reports a problem at a range.
    package mutating func report(_ severity: Severity, _ rule: String, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(severity, rule: rule, message, at: range, notes: notes))
    }

    /// Reports an error at a node.
    package mutating func error(_ rule: String, _ message: String, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
        report(.error, rule, message, at: node.range, notes: notes)
    }

    /// Reports an error at a value read earlier.
    package mutating func error<T>(_ rule: String, _ message: String, at value: Located<T>, notes: [Diagnostic.Note] = []) {
        report(.error, rule, message, at: value.range, notes: notes)
    }

    /// Everything kept, and a last word on what was not (at line 1 of `file`).
    package func finished(file: String) -> [Diagnostic] {
        guard diagnostics.leftOutCount > 0 else { return diagnostics.all }
        let bySeverity = countsLeftOutBySeverity ? " (\(diagnostics.leftOutBySeverity))" : ""
        // The highest severity left out: warnings alone past the ceiling must not fail a run.
        return diagnostics.all + [Diagnostic(
            diagnostics.highestLeftOut ?? .error, rule: rules.tooManyProblems,
            "\(diagnostics.leftOutCount) more problems\(bySeverity) were found and not listed (at most \(diagnostics.limit) are listed for \(scope)); fix these and run again",
            at: SourceLocation(file: file, line: 1, column: 1))]
    }

    /// Whether the node stands in for an unresolved alias; counts it.
    package mutating func isPlaceholder(_ node: YAMLNode) -> Bool {
        guard node.isPlaceholder else { return false }
        placeholdersMet += 1
        return true
    }

    // MARK: Keys

    /// The pairs of a mapping by key; keys not in `known` are reported (``unknownKey(_:value:in:known:foreignKeys:)``).
    package mutating func fields(of node: YAMLNode, in place: String, known: [String]) -> [String: YAMLNode.Pair] {
        var fields: [String: YAMLNode.Pair] = [:]
        for pair in node.pairs {
            let key = pair.key.text ?? ""
            if known.contains(key) {
                fields[key] = pair
            } else {
                unknownKey(pair.key, value: pair.value, in: place, known: known)
            }
        }
        return fields
    }

    /// An unknown key in `place`, with what to write instead: for a key
    /// another tool uses, its hint from `foreignKeys`; for a key with no value
    /// at all (no `:`) in a flow mapping, which is most often the rest of the
    /// value before it, cut at a comma, that and the fix; else the nearest
    /// known key, or the list of them. A key over ``QuotedText/longest``
    /// characters is quoted cut and gets no suggestion.
    package mutating func unknownKey(
        _ key: YAMLNode, value: YAMLNode? = nil, in place: String, known: [String], foreignKeys: [String: ForeignKey] = [:]
    ) {
        let text = key.text ?? ""
        let shown = QuotedText.quoted(text)
        var message = "unknown key '\(shown)' in \(place)"
        if let foreign = foreignKeys[text] {
            message += "; \(foreign.hint)"
            if let meant = foreign.standsFor { typos.record(meant, at: key.range) }
        } else if let value, Self.isCutAtComma(value) {
            message += "; it has no ':' and no value: in a flow mapping ({...}) a comma ends a plain value, so if '\(shown)' "
                + "belongs to the value before it, quote that value (\"like this, with its comma\"); the keys are: \(known.joined(separator: ", "))"
        } else if !QuotedText.isLonger(text), let nearest = Suggestion.nearest(to: text, in: known) {
            message += "; did you mean '\(nearest)'?"
            typos.record(nearest, at: key.range)
        } else {
            message += "; expected one of: \(known.joined(separator: ", "))"
        }
        error(rules.unknownKey, message, at: key)
    }

    /// Whether `value` is the empty value YAML gives a key written without a
    /// `:` in a flow mapping: a plain empty scalar of no width.
    private static func isCutAtComma(_ value: YAMLNode) -> Bool {
        let range = value.range
        return value.kind == .scalar && value.scalarStyle == .plain && value.text?.isEmpty == true
            && range.start.line == range.end.line && range.start.column == range.end.column
    }

    /// A required key that a mapping lacks, reported at the mapping, unless
    /// a misspelling of it was reported inside the mapping already.
    package mutating func missing(_ key: String, in mapping: YAMLNode, of place: String, example: String) {
        missing(in: mapping, message: "\(place) is missing '\(key)'; add `\(key): \(example)`", unlessMisspelt: [key])
    }

    /// A required key that a mapping lacks, with a message of its own; not
    /// reported when a misspelling of any of `keys` was reported inside the mapping.
    package mutating func missing(in mapping: YAMLNode, message: String, unlessMisspelt keys: [String]) {
        guard !keys.contains(where: { hasTypo(of: $0, in: mapping.range) }) else { return }
        error(rules.missingKey, message, at: mapping)
    }

    /// Whether an unknown key inside `range` was reported as a typo of `key`.
    package func hasTypo(of key: String, in range: SourceRange) -> Bool {
        typos.contains(key, in: range)
    }

    // MARK: Kinds

    /// Whether the node is a mapping; reports otherwise (with `example`, when given, as what to write).
    package mutating func expectMapping(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String? = nil) -> Bool {
        expect(node, .mapping, what(), example: example())
    }

    /// Whether the node is a sequence; reports otherwise (with `example`, when given, as what to write).
    package mutating func expectSequence(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String? = nil) -> Bool {
        expect(node, .sequence, what(), example: example())
    }

    private mutating func expect(
        _ node: YAMLNode, _ kind: YAMLNode.Kind, _ what: @autoclosure () -> String, example: @autoclosure () -> String?
    ) -> Bool {
        if node.kind == kind { return true }
        if isPlaceholder(node) { return false }
        let what = what(), such = example().map { " such as \($0)" } ?? ""
        if node.isNull {
            error(rules.wrongKind, "\(what) has no value; it should be \(kind)\(such)", at: node)
        } else {
            error(rules.wrongKind, "\(what) should be \(kind)\(such), not \(node.kind)", at: node)
        }
        return false
    }

    /// The text of a scalar that is not null; reports a list, a mapping or an empty value.
    package mutating func text(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> String? {
        if isPlaceholder(node) { return nil }
        guard node.kind == .scalar, let text = node.text else {
            error(rules.wrongKind, "\(what()) should be a single value such as \(example()), not \(node.kind)", at: node)
            return nil
        }
        if node.isNull {
            error(rules.wrongKind, "\(what()) has no value; write one such as \(example())", at: node)
            return nil
        }
        return text
    }

    // MARK: Values

    /// A text; an empty one too, unless `nonEmpty`.
    package mutating func string(
        _ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String, nonEmpty: Bool = false
    ) -> Located<String>? {
        guard let text = text(node, what(), example: example()) else { return nil }
        if nonEmpty, text.isEmpty {
            error(rules.malformed, "\(what()) is empty; write one such as \(example())", at: node)
            return nil
        }
        return Located(text, at: node.range)
    }

    /// `true` or `false`, unquoted.
    package mutating func bool(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Located<Bool>? {
        guard let text = text(node, what(), example: "true or false") else { return nil }
        switch ScalarReading.boolean(node) {
        case .value(let value):
            return Located(value, at: node.range)
        case .yaml11(let meant):
            error(rules.booleanSpelling, "'\(text)' is not a boolean in YAML 1.2 (some tools read it as \(meant), others as text); write \(meant)", at: node)
        case .quoted(let spelt):
            error(rules.wrongKind, "\(what()) is the text \"\(text)\" in quotes; write \(spelt) without quotes for a boolean", at: node)
        case .notBoolean:
            error(rules.malformed, "\(what()) must be true or false, not '\(text)'", at: node)
        }
        return nil
    }

    /// A whole number in a range, written plainly (no quotes, tag, sign or leading zero).
    package mutating func wholeNumber(_ node: YAMLNode, _ what: @autoclosure () -> String, in range: ClosedRange<UInt64>) -> Located<UInt64>? {
        guard let text = text(node, what(), example: "\(range.lowerBound)") else { return nil }
        let bounds = "from \(range.lowerBound) to \(range.upperBound)"
        switch ScalarReading.wholeNumber(node) {
        case .notANumber:
            error(rules.malformed, "\(what()) must be a whole number \(bounds), not '\(text)'", at: node)
        case .tooLarge:
            error(rules.outOfRange, "\(what()) '\(text)' is too large; it must be \(bounds)", at: node)
        case .quoted(let value):
            error(rules.wrongKind, "\(what()) is the text \"\(text)\" in quotes; write \(value) without quotes for a number", at: node)
        case .tagged(let value, let tag):
            error(rules.wrongKind, "\(what()) is tagged \(tag); write \(value) as a plain number, untagged", at: node)
        case .leadingZero(let value):
            error(rules.malformed, "\(what()) '\(text)' starts with 0, which some YAML tools read as an octal number; write \(value)", at: node)
        case .value(let value):
            guard range.contains(value) else {
                error(rules.outOfRange, "\(what()) is \(value); it must be \(bounds)", at: node)
                return nil
            }
            return Located(value, at: node.range)
        }
        return nil
    }

    /// A whole number that fits an `Int`, in a range of numbers from 0 up.
    package mutating func integer(_ node: YAMLNode, _ what: @autoclosure () -> String, in range: ClosedRange<Int>) -> Located<Int>? {
        let bounds = UInt64(max(0, range.lowerBound))...UInt64(max(0, range.upperBound))
        return wholeNumber(node, what(), in: bounds).map { Located(Int(clamping: $0.value), at: $0.range) }
    }

    /// One of an enumeration's cases, by its raw value, with the nearest suggested when wrong.
    package mutating func choice<E: RawRepresentable>(_ node: YAMLNode, _ what: @autoclosure () -> String, among cases: [E]) -> Located<E>?
    where E.RawValue == String {
        let names = cases.map(\.rawValue)
        guard let text = text(node, what(), example: names.first ?? "") else { return nil }
        if let value = cases.first(where: { $0.rawValue == text }) { return Located(value, at: node.range) }
        invalidChoice(text, among: names, what: what(), at: node)
        return nil
    }

    /// Reports `text`, which is none of `names`, with the nearest suggested and the list of them.
    package mutating func invalidChoice(_ text: String, among names: [String], what: String, at node: YAMLNode) {
        var message = "'\(text)' is not a valid \(what)"
        if let nearest = Suggestion.nearest(to: text, in: names) { message += "; did you mean '\(nearest)'?" }
        message += " (expected one of: \(names.joined(separator: ", ")))"
        error(rules.invalidValue, message, at: node)
    }

    /// A list of texts (a single value is not accepted as a list of one).
    package mutating func stringList(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> [Located<String>]? {
        guard expectSequence(node, what()) else { return nil }
        var values: [Located<String>] = []
        values.reserveCapacity(node.items.count)
        for item in node.items {
            if let value = string(item, "an entry of \(what())", example: example()) { values.append(value) }
        }
        return values
    }
}
