/// The access level of the generated declarations.
public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// Visible in the module only (the default).
    case `internal`
    /// Visible to the other modules of the package.
    case package
    /// Visible to every module that imports the one holding the code.
    case `public`
}
