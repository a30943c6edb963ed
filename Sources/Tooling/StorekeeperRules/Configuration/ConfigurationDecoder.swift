import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy
import StorekeeperYAML

/// Reads the node tree of `storekeeper.yml` into settings, reporting every
/// problem (with the `configuration` id) at the value to change and leaving
/// that setting out, so that one run lists all of them. Reporting, unknown
/// and missing keys go through the ``YAMLDecodingContext`` every located-YAML
/// decoder shares; rule settings, steps, overrides and path patterns are the
/// configuration's own.
struct ConfigurationDecoder {
    static let topLevelKeys = ["rules", "steps", "overrides"]
    static let overrideKeys = ["paths", "rules"]

    /// Keys other tools use, and what to write here instead (ESLint's
    /// `files` stands for `paths`, which is then not reported missing again).
    static let foreignKeys: [String: ForeignKey] = [
        "disabled_rules": ForeignKey("turn rules off under 'rules', as in `rules: {restore-at-launch: off}`"),
        "disabled-rules": ForeignKey("turn rules off under 'rules', as in `rules: {restore-at-launch: off}`"),
        "excluded": ForeignKey("storekeeper checks the files it is given; to change rules for some files, use 'overrides'"),
        "ignores": ForeignKey("storekeeper checks the files it is given; to change rules for some files, use 'overrides'"),
        "ignorePatterns": ForeignKey("storekeeper checks the files it is given; to change rules for some files, use 'overrides'"),
        "files": ForeignKey("an override names its files under 'paths'", standsFor: "paths"),
        "excludedFiles": ForeignKey("patterns cannot be negated; list the paths the override applies to under 'paths'"),
    ]

    /// The ids the shared readers report with: `configuration` for every
    /// problem, and the usual last word past the ceiling.
    static let ruleIDs = DecodingRuleIDs(
        unknownKey: ConfigurationRuleID.configuration, missingKey: ConfigurationRuleID.configuration,
        wrongKind: ConfigurationRuleID.configuration, malformed: ConfigurationRuleID.configuration,
        invalidValue: ConfigurationRuleID.configuration, outOfRange: ConfigurationRuleID.configuration,
        booleanSpelling: ConfigurationRuleID.configuration, tooManyProblems: DiagnosticCap.countingRule)

    let policyRules: Set<String>
    private(set) var rules: [String: RuleSetting] = [:]
    private(set) var steps: [String] = []
    private(set) var overrides: [ConfigurationOverride] = []
    /// What was reported, and the keys taken for typos.
    private var context = YAMLDecodingContext(rules: ConfigurationDecoder.ruleIDs, limit: DiagnosticCap.limit, scope: "a configuration file")

    /// Where each step was first listed, for the note on a repeat.
    private var stepLocations: [String: SourceLocation] = [:]

    init(policyRules: Set<String>) {
        self.policyRules = policyRules
    }

    /// An example rule id for messages: a real one when there is one.
    private var exampleRule: String {
        policyRules.contains("restore-at-launch") ? "restore-at-launch" : policyRules.sorted().first ?? "rule-id"
    }

    mutating func decode(_ root: YAMLNode) {
        // A file of comments only is an empty configuration.
        if root.isNull || root.isPlaceholder { return }
        guard root.kind == .mapping else {
            error("the configuration should be a mapping with the keys rules, steps and overrides, not \(root.kind)", at: root)
            return
        }
        for pair in root.pairs {
            switch pair.key.text {
            case "rules":
                if let settings = ruleSettings(pair.value, place: "'rules'") {
                    rules.merge(settings) { _, later in later }
                }
            case "steps":
                decodeSteps(pair.value)
            case "overrides":
                decodeOverrides(pair.value)
            default:
                context.unknownKey(pair.key, value: pair.value, in: "the configuration", known: Self.topLevelKeys, foreignKeys: Self.foreignKeys)
            }
        }
    }

    // MARK: Rules

    /// A mapping of rule ids to settings; nil (reported) when it is not a mapping.
    private mutating func ruleSettings(_ node: YAMLNode, place: String) -> [String: RuleSetting]? {
        // An empty key (its entries commented out) configures nothing.
        if node.isNull || node.isPlaceholder { return [:] }
        guard node.kind == .mapping else {
            error("\(place) should be a mapping of rule ids to off, note, warning or error, such as `\(exampleRule): off`, not \(node.kind)", at: node)
            return nil
        }
        var settings: [String: RuleSetting] = [:]
        for pair in node.pairs {
            guard let id = pair.key.text else { continue }
            guard policyRules.contains(id) else {
                unknownRule(id, at: pair.key)
                continue
            }
            if let setting = setting(pair.value, rule: id) { settings[id] = setting }
        }
        return settings
    }

    private mutating func unknownRule(_ id: String, at key: YAMLNode) {
        error(RuleIDProblem.message(for: id, policyRules: policyRules, place: .configuration), at: key)
    }

    private mutating func setting(_ node: YAMLNode, rule: String) -> RuleSetting? {
        if node.isPlaceholder { return nil }
        guard node.kind == .scalar, let text = node.text else {
            error("the setting of '\(rule)' should be one of off, note, warning or error, not \(node.kind)", at: node)
            return nil
        }
        if node.isNull {
            error("the setting of '\(rule)' has no value; write off, note, warning or error", at: node)
            return nil
        }
        if let setting = RuleSetting(spelling: text) { return setting }
        var message = "'\(QuotedText.quoted(text))' is not a setting for '\(rule)'"
        if !QuotedText.isLonger(text), let suggestion = RuleSetting.suggestion(for: text) {
            message += "; did you mean '\(suggestion)'?"
        }
        error(message + " (write off, note, warning or error)", at: node)
        return nil
    }

    // MARK: Steps

    private mutating func decodeSteps(_ node: YAMLNode) {
        if node.isNull || node.isPlaceholder { return }
        guard node.kind == .sequence else {
            let example = node.kind == .scalar ? "[\(QuotedText.quoted(node.text ?? "audit-log"))]" : "[audit-log]"
            error("'steps' should be a list of step names such as \(example), not \(node.kind)", at: node)
            return
        }
        for item in node.items {
            if item.isPlaceholder { continue }
            guard item.kind == .scalar, let name = item.text, !item.isNull else {
                let kind = item.isNull ? "an empty value" : item.kind.description
                error("an entry of 'steps' should be a step name such as audit-log, not \(kind)", at: item)
                continue
            }
            if let problem = Self.stepNameProblem(name) {
                error("the step name '\(QuotedText.quoted(name))' \(problem)", at: item)
            } else if BuiltInStep(name: name) != nil {
                report(.warning, "'\(name)' is a built-in step; list only the steps plugins add, and remove this one", at: item)
            } else if let first = stepLocations[name] {
                report(.warning, "the step '\(name)' is listed twice; remove this one", at: item,
                       notes: [Diagnostic.Note("first listed here", at: first)])
            } else {
                stepLocations[name] = item.location
                steps.append(name)
            }
        }
    }

    /// What is wrong with a step name, or nil: a letter, then letters,
    /// digits, `-`, `_` or `.`, as catalogs name features and rules.
    static func stepNameProblem(_ name: String) -> String? {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
            isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar == "."
        }
        let rule = "a step name starts with a letter, then uses only letters, digits, '-', '_' and '.'"
        guard let first = name.unicodeScalars.first else { return "is empty; \(rule)" }
        // Visible characters without their code point, as this message has always said them.
        if !isLetter(first) { return "starts with \(NamePatterns.describe(first, visibleWithCodePoint: false)); \(rule)" }
        if let bad = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            return "contains \(NamePatterns.describe(bad, visibleWithCodePoint: false)); \(rule)"
        }
        if name.unicodeScalars.count > 64 { return "is \(name.unicodeScalars.count) characters long; a step name has at most 64" }
        return nil
    }

    // MARK: Overrides

    private mutating func decodeOverrides(_ node: YAMLNode) {
        if node.isNull || node.isPlaceholder { return }
        guard node.kind == .sequence else {
            error("'overrides' should be a list of entries with paths and rules, such as `- {paths: [\"legacy/**\"], rules: {\(exampleRule): off}}`, not \(node.kind)", at: node)
            return
        }
        for item in node.items {
            if let override = decodeOverride(item) { overrides.append(override) }
        }
    }

    private mutating func decodeOverride(_ node: YAMLNode) -> ConfigurationOverride? {
        if node.isPlaceholder { return nil }
        guard node.kind == .mapping else {
            let kind = node.isNull ? "an empty value" : node.kind.description
            error("an entry of 'overrides' should be a mapping with paths and rules, such as `{paths: [\"legacy/**\"], rules: {\(exampleRule): off}}`, not \(kind)", at: node)
            return nil
        }
        var patterns: [PathPattern]?
        var settings: [String: RuleSetting]?
        var valid = true
        for pair in node.pairs {
            switch pair.key.text {
            case "paths":
                patterns = decodePatterns(pair.value)
                if patterns == nil { valid = false }
            case "rules":
                settings = ruleSettings(pair.value, place: "the 'rules' of an override")
                if settings == nil { valid = false }
            default:
                context.unknownKey(pair.key, value: pair.value, in: "an override", known: Self.overrideKeys, foreignKeys: Self.foreignKeys)
            }
        }
        // A missing key that a reported typo stands for is the same mistake, reported once.
        if patterns == nil, valid {
            context.missing(in: node, message: "the override is missing 'paths'; add the files it applies to, such as `paths: [\"legacy/**\"]`", unlessMisspelt: ["paths"])
        }
        if settings == nil, valid {
            context.missing(in: node, message: "the override is missing 'rules'; add the settings for its files, such as `rules: {\(exampleRule): off}`", unlessMisspelt: ["rules"])
        }
        guard valid, let patterns, let settings else { return nil }
        return ConfigurationOverride(patterns: patterns, rules: settings)
    }

    /// The patterns of `paths`; nil (reported) when it is not a list or names no valid pattern.
    private mutating func decodePatterns(_ node: YAMLNode) -> [PathPattern]? {
        if node.isPlaceholder { return nil }
        guard node.kind == .sequence else {
            let example = node.kind == .scalar && !node.isNull ? "[\"\(QuotedText.quoted(node.text ?? ""))\"]" : "[\"legacy/**\"]"
            let kind = node.isNull ? "an empty value" : node.kind.description
            error("'paths' should be a list of path patterns such as \(example), not \(kind)", at: node)
            return nil
        }
        guard !node.items.isEmpty else {
            error("'paths' is empty, so the override applies to no file; add a pattern such as \"legacy/**\"", at: node)
            return nil
        }
        var patterns: [PathPattern] = []
        var valid = true
        for item in node.items {
            if item.isPlaceholder { valid = false; continue }
            guard item.kind == .scalar, let text = item.text else {
                error("an entry of 'paths' should be a path pattern such as \"legacy/**\", not \(item.kind)", at: item)
                valid = false
                continue
            }
            switch PathPattern.compile(item.isNull ? "" : text) {
            case .success(let pattern): patterns.append(pattern)
            case .failure(let problem):
                error("the path pattern '\(QuotedText.quoted(item.isNull ? "" : text))' \(problem.message)", at: item)
                valid = false
            }
        }
        return valid ? patterns : nil
    }

    // MARK: Reporting

    /// Everything reported, and a last word on what was not listed (at line 1 of `file`).
    func diagnostics(file: String) -> [Diagnostic] {
        context.finished(file: file)
    }

    private mutating func error(_ message: String, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
        context.error(ConfigurationRuleID.configuration, message, at: node, notes: notes)
    }

    private mutating func report(_ severity: Severity, _ message: String, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
        context.report(severity, ConfigurationRuleID.configuration, message, at: node, notes: notes)
    }
}
