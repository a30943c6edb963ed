/// The package's root folder, for tests that read its files (catalogs,
/// docs, fixtures) through #filePath rather than bundling them: three levels
/// above this file's folder, `Sources/Testing/StorekeeperTestSupport/`.
public enum PackageRoot {
    /// The root's path, without a trailing slash.
    public static let path: String = {
        var path = #filePath
        for _ in 0..<4 {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            path = String(path[..<slash])
        }
        return path
    }()
}
