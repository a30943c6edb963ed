/// The ids of the diagnostics about inline suppression comments.
public enum SuppressionRuleID {
    /// A malformed `# storekeeper:` comment: no reason, an unknown or
    /// non-policy rule id, or a directive other than `disable-next-line`.
    public static let invalid = "invalid-suppression"
    /// A suppression comment naming a rule that reported nothing on its line.
    public static let unused = "unused-suppression"
}
