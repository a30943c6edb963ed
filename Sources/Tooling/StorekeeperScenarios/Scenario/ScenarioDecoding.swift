import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

extension DecodingRuleIDs {
    /// The ids a scenario's readers report with (``ScenarioRuleID``): a value
    /// of the wrong shape is `scenario-type`, any other bad value `scenario-value`.
    static let scenario = DecodingRuleIDs(
        unknownKey: ScenarioRuleID.unknownKey, missingKey: ScenarioRuleID.missing, wrongKind: ScenarioRuleID.type,
        malformed: ScenarioRuleID.value, invalidValue: ScenarioRuleID.value, outOfRange: ScenarioRuleID.value,
        booleanSpelling: ScenarioRuleID.value, tooManyProblems: ScenarioRuleID.limit)
}

extension YAMLDecodingContext {
    /// The most diagnostics listed for one scenario file.
    static let scenarioLimit = 1_000

    /// A context for decoding a scenario file: its ids, and a ceiling of
    /// ``scenarioLimit`` (a hostile file, a list of a million duplicates,
    /// must not make a million diagnostics).
    static func scenario() -> YAMLDecodingContext {
        YAMLDecodingContext(rules: .scenario, limit: scenarioLimit, scope: "a scenario", countsLeftOutBySeverity: false)
    }

    /// A name of a device or a purchase: 1 to 100 letters, digits, `-`, `_` or `.`.
    mutating func name(_ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String) -> Located<String>? {
        guard let name = string(node, what(), example: example(), nonEmpty: true) else { return nil }
        if let problem = Self.nameProblem(name.value) {
            error(ScenarioRuleID.value, "\(what()) '\(name.value)' \(problem), like \(example())", at: node)
            return nil
        }
        return name
    }

    /// A product identifier, checked for its characters (whether the catalog
    /// has it is `ScenarioCheck`'s business).
    mutating func productID(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Located<String>? {
        guard let id = string(node, what(), example: "com.example.product", nonEmpty: true) else { return nil }
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
                return "contains \(NamePatterns.describe(scalar)); use only letters, digits, '-', '_' and '.'"
            }
        }
        if text.unicodeScalars.count > 100 { return "is \(text.unicodeScalars.count) characters long; use at most 100" }
        return nil
    }

    /// A list of non-empty texts, each read by `read`; an entry listed twice
    /// is reported (with a note at the first) and kept once.
    mutating func uniqueList(
        _ node: YAMLNode, _ what: @autoclosure () -> String, example: @autoclosure () -> String,
        read: (inout YAMLDecodingContext, YAMLNode) -> Located<String>?
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
            context.string(item, "an entry of \(what)", example: example, nonEmpty: true)
        }
        return list.map { Located(Set($0.map(\.value)), at: node.range) }
    }
}
