/// The ids of the diagnostics that generating Swift reports, beyond those of
/// validation. docs/codegen.md describes each.
public enum CodegenRuleID {
    /// Two names (reference names, features, balances, groups or catalogs)
    /// that become the same Swift identifier.
    public static let nameCollision = "swift-name-collision"
    /// A name that becomes an identifier the generated code already uses (`allCases`).
    public static let reservedName = "swift-reserved-name"
    /// The codegen settings file (storekeeper-codegen.json) is not what it should be.
    public static let settings = "codegen-settings"
}
