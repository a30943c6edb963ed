import StorekeeperDiagnostics

/// The ids of the diagnostics that decoding and loading a catalog report.
/// `docs/diagnostics.md` describes each with an example.
public enum CatalogRuleID {
    /// A key the format does not define at that place.
    public static let unknownKey = "unknown-key"
    /// A value outside its enumeration (a product type, a platform, a step).
    public static let invalidValue = "invalid-value"
    /// A list where a value was expected, a value where a mapping was, and so on.
    public static let wrongKind = "wrong-kind"
    /// A required key is missing.
    public static let missingKey = "missing-key"
    /// A number or length outside its range.
    public static let outOfRange = "out-of-range"
    /// An offer that costs no less than the subscription over the same time (a warning).
    public static let offerPrice = "offer-price"
    /// A field that does not apply to the product's type or to its context.
    public static let notApplicable = "not-applicable"
    /// An id or name with characters or a length the format does not allow.
    public static let invalidName = "invalid-name"
    /// A product id used twice.
    public static let duplicateID = "duplicate-id"
    /// A reference name, feature, balance, group, platform or rule name used twice.
    public static let duplicateName = "duplicate-name"
    /// A feature, balance or group that is used but not declared.
    public static let undeclared = "undeclared-reference"
    /// A price that is not a decimal with at most two places.
    public static let invalidPrice = "invalid-price"
    /// A period or duration that is not an accepted ISO 8601 period.
    public static let invalidPeriod = "invalid-period"
    /// A locale that is not a language code with an optional script and region.
    public static let invalidLocale = "invalid-locale"
    /// A content path that is absolute or leaves its root.
    public static let contentPath = "content-path"
    /// A content size that cannot be read or is out of range.
    public static let invalidSize = "invalid-size"
    /// A server URL that is not https (other than on the local machine), or not a URL.
    public static let insecureURL = "insecure-url"
    /// A `format` this version does not read.
    public static let unsupportedFormat = "unsupported-format"
    /// `yes`, `no`, `on`, `off` where a boolean is expected.
    public static let booleanSpelling = "boolean-spelling"
    /// A version written as a bare number, which other YAML tools read as a float.
    public static let unquotedVersion = "unquoted-version"
    /// An include that cannot be read, is absolute, or closes a cycle.
    public static let include = "include"
    /// A key a fragment may not set.
    public static let fragmentKey = "fragment-key"
    /// A catalog (with its fragments) that has no product.
    public static let noProducts = "no-products"
    /// A file given to validate that is not a catalog.
    public static let notACatalog = "not-a-catalog"
    /// A `.yaml` or `.yml` link found in a folder search that points at nothing.
    public static let danglingLink = "dangling-link"
    /// More problems than are listed for one catalog.
    public static let tooManyProblems = DiagnosticCap.countingRule
    /// A rule pattern that matches no product.
    public static let unmatchedPattern = "unmatched-pattern"
}
