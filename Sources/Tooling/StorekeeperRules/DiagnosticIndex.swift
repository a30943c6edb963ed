import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperYAML

/// Every id `storekeeper validate` can report, described for formats that
/// list their rules (SARIF): the policy rules from their descriptions, the
/// format's checks and the configuration's from this table.
public enum DiagnosticIndex {
    /// Descriptions of every id, policy rules first, then the rest by id.
    public static var all: [RuleMetadata] {
        let policy = RuleRegistry.descriptions.map {
            RuleMetadata(id: $0.id, summary: $0.summary, help: $0.rationale, defaultSeverity: $0.severity)
        }
        let others = checks.map { id, summary, severity in
            RuleMetadata(id: id, summary: summary, help: "\(summary) See docs/diagnostics.md#\(id).", defaultSeverity: severity)
        }
        return policy + others.sorted { $0.id < $1.id }
    }

    /// The ids of the format's checks (YAML and catalog), which cannot be
    /// configured or suppressed: a catalog that breaks them cannot be read as written.
    public static let formatCheckIDs: Set<String> = Set(checks.map(\.0)).subtracting([
        ConfigurationRuleID.configuration, SuppressionRuleID.invalid, SuppressionRuleID.unused,
    ])

    /// The format's and the configuration's checks: id, summary, severity.
    static let checks: [(String, String, Severity)] = [
        (YAMLRuleID.syntax, "The text is valid YAML in UTF-8 (or UTF-16 with a byte order mark).", .error),
        (YAMLRuleID.limit, "A file stays within the size, nesting depth and alias expansion limits.", .error),
        (YAMLRuleID.duplicateKey, "A key appears at most once in a mapping.", .error),
        (YAMLRuleID.complexKey, "Keys are plain values, not lists or mappings.", .error),
        (YAMLRuleID.alias, "An alias names an anchor defined before it, outside its own container.", .error),
        (YAMLRuleID.mergeKey, "A merge key (`<<`) merges a mapping or a list of mappings.", .error),
        (YAMLRuleID.documentCount, "A file holds exactly one YAML document.", .error),
        (YAMLRuleID.tooManyProblems, "Only the first problems of a file or catalog are listed.", .error),
        (CatalogRuleID.unknownKey, "Every key is one the format defines at that place.", .error),
        (CatalogRuleID.invalidValue, "A value is one of its enumeration's values.", .error),
        (CatalogRuleID.wrongKind, "A value is the kind the format expects: a value, a list or a mapping.", .error),
        (CatalogRuleID.missingKey, "Every required key is present.", .error),
        (CatalogRuleID.outOfRange, "Numbers and lengths are within their ranges.", .error),
        (CatalogRuleID.notApplicable, "A field applies to the product's type and context.", .error),
        (CatalogRuleID.invalidName, "Ids and names use the characters and lengths the format allows.", .error),
        (CatalogRuleID.duplicateID, "A product id is used once across a catalog and its fragments.", .error),
        (CatalogRuleID.duplicateName, "Reference names, features, balances, groups and rule names are declared once.", .error),
        (CatalogRuleID.undeclared, "Every feature, balance and group a product uses is declared.", .error),
        (CatalogRuleID.invalidPrice, "A price is a decimal with at most two places.", .error),
        (CatalogRuleID.invalidPeriod, "Periods and durations are accepted ISO 8601 periods.", .error),
        (CatalogRuleID.invalidLocale, "A locale is a language code with an optional script and region.", .error),
        (CatalogRuleID.contentPath, "A content path is relative and never leaves its root.", .error),
        (CatalogRuleID.invalidSize, "A content size is a number with a unit, within range.", .error),
        (CatalogRuleID.insecureURL, "The server URL is https (http only on the local machine).", .error),
        (CatalogRuleID.unsupportedFormat, "The catalog's `format` is one this version reads.", .error),
        (CatalogRuleID.booleanSpelling, "Booleans are written `true` or `false`.", .error),
        (CatalogRuleID.unquotedVersion, "Versions are quoted, so that YAML tools do not read them as numbers.", .warning),
        (CatalogRuleID.include, "Includes are relative, readable, inside the validated folder, and form no cycle.", .error),
        (CatalogRuleID.fragmentKey, "A fragment holds only the keys fragments may hold.", .error),
        (CatalogRuleID.noProducts, "A catalog and its fragments have at least one product.", .error),
        (CatalogRuleID.notACatalog, "A file given to validate is a catalog (it has a top-level `catalog` key).", .error),
        (CatalogRuleID.danglingLink, "A `.yaml` or `.yml` link found in a folder search points at a file.", .error),
        (CatalogRuleID.unmatchedPattern, "A rule's product pattern matches at least one product.", .warning),
        (ConfigurationRuleID.configuration, "storekeeper.yml names policy rules, severities, steps and globs correctly.", .error),
        (SuppressionRuleID.invalid, "A suppression comment names policy rules and gives a reason.", .error),
        (SuppressionRuleID.unused, "A suppression comment hides a diagnostic on the next line.", .warning),
    ]
}
