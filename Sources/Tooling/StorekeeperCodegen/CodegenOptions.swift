/// What the generated Swift looks like, beyond what the catalogs say.
public struct CodegenOptions: Sendable, Hashable {
    /// The access level of every generated declaration (internal by default).
    public var access: AccessLevel
    /// Whether a module with exactly one catalog also gets top-level
    /// `Product`, `Feature` and `Balance` type aliases, so that code writes
    /// `Product.rocketCar`. They shadow StoreKit's `Product` in that module.
    public var typeAliases: Bool
    /// When set, file paths in the generated comments are written relative
    /// to this directory (the package's), so the output does not depend on
    /// where the package is checked out.
    public var sourceRoot: String?

    /// Options; the defaults are internal access with type aliases.
    public init(access: AccessLevel = .internal, typeAliases: Bool = true, sourceRoot: String? = nil) {
        self.access = access
        self.typeAliases = typeAliases
        self.sourceRoot = sourceRoot
    }

    /// A path as the generated comments show it: relative to ``sourceRoot``
    /// when it lies inside it, as given otherwise.
    func displayPath(_ path: String) -> String {
        guard var root = sourceRoot, !root.isEmpty else { return path }
        if !root.hasSuffix("/") { root += "/" }
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }
}
