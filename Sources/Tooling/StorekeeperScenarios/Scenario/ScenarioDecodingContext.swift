import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperSimulatedStore
import StorekeeperYAML

/// Collects diagnostics while a scenario file is decoded and offers the typed
/// readers every part of the decoder uses. A reader that fails reports why,
/// at the value to change, and returns nil; decoding goes on, so that one
/// run reports every problem.
///
/// Diagnostics have a ceiling: a hostile file (a list of a million
/// duplicates) must not make a million of them. Past `limit` they are
/// counted, not kept, and one last diagnostic says how many were left out.
struct ScenarioDecodingContext {
    /// The most diagnostics kept for one file.
    static let limit = 1_000

    /// The file, for diagnostics that have no node.
    let file: String
    private var cap = DiagnosticCap(ceiling: limit)
    /// Errors reported, kept or not.
    private(set) var errorCount = 0
    /// Nodes standing in for aliases the YAML layer could not resolve (and
    /// reported): what holds one is not valid, but says nothing more.
    private(set) var placeholdersMet = 0
    /// Unknown keys that look like a typo of a known one, with the key they
    /// suggest: a missing key that a typo in the same mapping suggests is
    /// the same mistake, reported once (as the typo).
    private var typos: [(meant: String, range: SourceRange)] = []

    init(file: String) {
        self.file = file
    }

    // MARK: Reporting

    /// Keeps a diagnostic (up to the ceiling).
    mutating func append(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .error { errorCount += 1 }
        cap.append(diagnostic)
    }

    /// Reports a problem at a range.
    mutating func report(_ severity: Severity, _ rule: String, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        append(Diagnostic(severity, rule: rule, message, at: range, notes: notes))
    }

    /// Reports an error at a node.
    mutating func error(_ rule: String, _ message: String, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
        report(.error, rule, message, at: node.range, notes: notes)
    }

    /// Whether more diagnostics were found than kept.
    var isCapped: Bool { cap.leftOutCount > 0 }

    /// Everything kept, and a last word on what was not.
    func finished() -> [Diagnostic] {
        guard cap.leftOutCount > 0 else { return cap.kept }
        return cap.kept + [Diagnostic(
            cap.highestLeftOut ?? .error, rule: ScenarioRuleID.limit,
            "\(cap.leftOutCount) more problems were found and not listed (at most \(Self.limit) are listed for a scenario); fix these and run again",
            at: SourceLocation(file: file, line: 1, column: 1))]
    }

    /// Whether the node stands in for an unresolved alias; counts it.
    mutating func isPlaceholder(_ node: YAMLNode) -> Bool {
        guard node.isPlaceholder else { return false }
        placeholdersMet += 1
        return true
    }

    // MARK: Mappings

    /// The pairs of a mapping by key, in a dictionary; keys not in `known`
    /// are reported with the nearest known key (or the list of them).
    mutating func fields(of node: YAMLNode, in place: String, known: [String]) -> [String: YAMLNode.Pair] {
        var fields: [String: YAMLNode.Pair] = [:]
        for pair in node.pairs {
            let key = pair.key.text ?? ""
            if known.contains(key) {
                fields[key] = pair
            } else {
                unknownKey(pair.key, in: place, known: known)
            }
        }
        return fields
    }

    /// An unknown key, with the nearest known key suggested (or the list of them).
    mutating func unknownKey(_ key: YAMLNode, in place: String, known: [String]) {
        let text = key.text ?? ""
        var message = "unknown key '\(text)' in \(place)"
        if let nearest = Suggestion.nearest(to: text, in: known) {
            message += "; did you mean '\(nearest)'?"
            typos.append((nearest, key.range))
        } else {
            message += "; expected one of: \(known.joined(separator: ", "))"
        }
        error(ScenarioRuleID.unknownKey, message, at: key)
    }

    /// A required key that a mapping lacks, reported at the mapping, unless
    /// a misspelling of it was reported inside the mapping already.
    mutating func missing(_ key: String, in mapping: YAMLNode, of place: String, example: String) {
        missing(key, in: mapping, message: "\(place) is missing '\(key)'; add `\(key): \(example)`", unlessMisspelt: [key])
    }

    /// A required key that a mapping lacks, with a message of its own; not
    /// reported when a misspelling of any of `keys` was reported inside the mapping.
    mutating func missing(_ key: String, in mapping: YAMLNode, message: String, unlessMisspelt keys: [String]) {
        let range = mapping.range
        let start = range.start, end = range.end
        let misspelt = typos.contains { typo in
            let at = typo.range.start
            return keys.contains(typo.meant) && typo.range.fileID == range.fileID
                && (at.line, at.column) >= (start.line, start.column) && (at.line, at.column) < (end.line, end.column)
        }
        guard !misspelt else { return }
        error(ScenarioRuleID.missing, message, at: mapping)
    }

    // MARK: Kinds

    /// Whether the node is a mapping; reports otherwise.
    mutating func expectMapping(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> Bool {
        expect(node, .mapping, what(), example: example())
    }

    /// Whether the node is a sequence; reports otherwise.
    mutating func expectSequence(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> Bool {
        expect(node, .sequence, what(), example: example())
    }

    private mutating func expect(_ node: YAMLNode, _ kind: YAMLNode.Kind, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> Bool {
        if node.kind == kind { return true }
        if isPlaceholder(node) { return false }
        if node.isNull {
            error(ScenarioRuleID.type, "\(what()) has no value; it should be \(kind) such as \(example())", at: node)
        } else {
            error(ScenarioRuleID.type, "\(what()) should be \(kind) such as \(example()), not \(node.kind)", at: node)
        }
        return false
    }

    /// The text of a scalar that is not null; reports a list, a mapping or an empty value.
    mutating func text(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> String? {
        if isPlaceholder(node) { return nil }
        guard node.kind == .scalar, let text = node.text else {
            error(ScenarioRuleID.type, "\(what()) should be a single value such as \(example()), not \(node.kind)", at: node)
            return nil
        }
        if node.isNull {
            error(ScenarioRuleID.type, "\(what()) has no value; write one such as \(example())", at: node)
            return nil
        }
        return text
    }

    // MARK: Values

    /// A non-empty text.
    mutating func string(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> Located<String>? {
        guard let text = text(node, what(), example: example()) else { return nil }
        guard !text.isEmpty else {
            error(ScenarioRuleID.value, "\(what()) is empty; write one such as \(example())", at: node)
            return nil
        }
        return Located(text, at: node.range)
    }

    /// A name of a device or a purchase: 1 to 100 letters, digits, `-`, `_` or `.`.
    mutating func name(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> Located<String>? {
        guard let name = string(node, what(), example: example()) else { return nil }
        if let problem = Self.nameProblem(name.value) {
            error(ScenarioRuleID.value, "\(what()) '\(name.value)' \(problem), like \(example())", at: node)
            return nil
        }
        return name
    }

    /// A product identifier, checked for its characters (whether the catalog
    /// has it is `ScenarioCheck`'s business).
    mutating func productID(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Located<String>? {
        guard let id = string(node, what(), example: "com.example.product") else { return nil }
        if let problem = NamePatterns.productID(id.value) {
            error(ScenarioRuleID.value, "the product id '\(id.value)' \(problem)", at: node)
            return nil
        }
        return id
    }

    /// What is wrong with a device or purchase name, or nil.
    static func nameProblem(_ text: String) -> String? {
        for scalar in text.unicodeScalars {
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar == ".")
            if !allowed {
                return "contains \(describe(scalar)); use only letters, digits, '-', '_' and '.'"
            }
        }
        if text.unicodeScalars.count > 100 { return "is \(text.unicodeScalars.count) characters long; use at most 100" }
        return nil
    }

    /// A character as a message shows it: visible ones quoted, others by code point.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar == " " { return "a space" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
            return "the invisible character \(code)"
        }
        return "'\(scalar)' (\(code))"
    }

    /// A whole number in a range, written plainly (no quotes, tag, sign or leading zero).
    mutating func integer(_ node: YAMLNode, _ what: @autoclosure () -> String, in range: ClosedRange<UInt64>) -> Located<UInt64>? {
        guard let text = text(node, what(), example: "\(range.lowerBound)") else { return nil }
        let bounds = "from \(range.lowerBound) to \(range.upperBound)"
        switch ScalarReading.wholeNumber(node) {
        case .notANumber:
            error(ScenarioRuleID.value, "\(what()) must be a whole number \(bounds), not '\(text)'", at: node)
        case .tooLarge:
            error(ScenarioRuleID.value, "\(what()) '\(text)' is too large; it must be \(bounds)", at: node)
        case .quoted(let value):
            error(ScenarioRuleID.type, "\(what()) is the text \"\(text)\" in quotes; write \(value) without quotes for a number", at: node)
        case .tagged(let value, let tag):
            error(ScenarioRuleID.type, "\(what()) is tagged \(tag); write \(value) as a plain number, untagged", at: node)
        case .leadingZero(let value):
            error(ScenarioRuleID.value, "\(what()) '\(text)' starts with 0, which some YAML tools read as an octal number; write \(value)", at: node)
        case .value(let value):
            guard range.contains(value) else {
                error(ScenarioRuleID.value, "\(what()) is \(value); it must be \(bounds)", at: node)
                return nil
            }
            return Located(value, at: node.range)
        }
        return nil
    }

    /// A whole number that fits an `Int`, in a range.
    mutating func int(_ node: YAMLNode, _ what: @autoclosure () -> String, in range: ClosedRange<Int>) -> Located<Int>? {
        let bounds = UInt64(max(0, range.lowerBound))...UInt64(max(0, range.upperBound))
        return integer(node, what(), in: bounds).map { Located(Int($0.value), at: $0.range) }
    }

    /// `true` or `false`, unquoted.
    mutating func bool(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Located<Bool>? {
        guard let text = text(node, what(), example: "true") else { return nil }
        switch ScalarReading.boolean(node) {
        case .value(let value):
            return Located(value, at: node.range)
        case .yaml11(let meant):
            error(ScenarioRuleID.value, "'\(text)' is not a boolean in YAML 1.2 (some tools read it as \(meant), others as text); write \(meant)", at: node)
        case .quoted(let spelt):
            error(ScenarioRuleID.type, "\(what()) is the text \"\(text)\" in quotes; write \(spelt) without quotes for a boolean", at: node)
        case .notBoolean:
            error(ScenarioRuleID.value, "\(what()) must be true or false, not '\(text)'", at: node)
        }
        return nil
    }

    /// One of an enumeration's spellings, with the nearest suggested when wrong.
    mutating func choice<E: RawRepresentable>(_ node: YAMLNode, _ what: @autoclosure () -> String, among cases: [E]) -> Located<E>?
    where E.RawValue == String {
        let names = cases.map(\.rawValue)
        guard let text = text(node, what(), example: names.first ?? "") else { return nil }
        if let value = cases.first(where: { $0.rawValue == text }) { return Located(value, at: node.range) }
        var message = "'\(text)' is not a valid \(what())"
        if let nearest = Suggestion.nearest(to: text, in: names) { message += "; did you mean '\(nearest)'?" }
        message += " (expected one of: \(names.joined(separator: ", ")))"
        error(ScenarioRuleID.value, message, at: node)
        return nil
    }

    /// A list of non-empty texts, each read by `read`; an entry listed twice
    /// is reported (with a note at the first) and kept once.
    mutating func uniqueList(
        _ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String,
        read: (inout ScenarioDecodingContext, YAMLNode) -> Located<String>?
    ) -> [Located<String>]? {
        let what = what()
        guard expectSequence(node, what, example: "[\(example())]") else { return nil }
        var values: [Located<String>] = []
        var seen: [String: Located<String>] = [:]
        var ok = true
        for item in node.items {
            guard let value = read(&self, item) else {
                ok = false
                continue
            }
            if let first = seen[value.value] {
                error(ScenarioRuleID.duplicate, "'\(value.value)' is listed twice in \(what); remove this one", at: item,
                      notes: [Diagnostic.Note("first listed here", at: first.location)])
                ok = false
                continue
            }
            seen[value.value] = value
            values.append(value)
        }
        return ok ? values : nil
    }

    /// A set of non-empty texts (a list without repeats).
    mutating func stringSet(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> Located<Set<String>>? {
        let what = what(), example = example()
        let list = uniqueList(node, what, example: example) { context, item in
            context.string(item, "an entry of \(what)", example: example)
        }
        return list.map { Located(Set($0.map(\.value)), at: node.range) }
    }
}
