/// The ids of the diagnostics that reading, importing and exporting StoreKit
/// configuration files report. docs/storekit.md describes each.
public enum StoreKitRuleID {
    /// The file is not JSON, has a duplicate key, or is over a limit.
    public static let syntax = "storekit-syntax"
    /// A `version` this reader does not read.
    public static let version = "storekit-version"
    /// A key an object needs is missing.
    public static let missingKey = "storekit-missing-key"
    /// A value of the wrong kind: a string where a number belongs, and so on.
    public static let wrongKind = "storekit-wrong-kind"
    /// A value outside its list (a product type, a payment mode), or a
    /// product in a list that does not hold its type.
    public static let invalidValue = "storekit-invalid-value"
    /// A subscription whose `subscriptionGroupID` is not the id of the group that lists it (a warning).
    public static let groupMismatch = "storekit-group-mismatch"
    /// A key the reader does not know (a warning: kept by `export --base`).
    public static let unknownKey = "storekit-unknown-key"
    /// A known key that the catalog has no place for (a note: kept by `export --base`).
    public static let notImported = "storekit-not-imported"
    /// Something the catalog needs and the file does not say, filled with a default (a note).
    public static let filled = "storekit-filled"
    /// An empty value the catalog cannot hold, replaced in the catalog (a warning).
    public static let placeholder = "storekit-placeholder"
    /// A value the catalog cannot hold at all (an error: nothing is written).
    public static let unsupported = "storekit-unsupported"
    /// What `export` made up or left out (a note).
    public static let export = "storekit-export"
}
