/// Lexical path arithmetic for includes: no file system access, so that
/// paths in diagnostics stay as the user wrote them (relative stays relative).
public enum SourcePath {
    /// The folder part of a path ("" for a bare file name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A path relative to the file that names it, normalized.
    public static func resolve(_ relative: String, from file: String) -> String {
        let directory = directory(of: file)
        return normalize(directory.isEmpty ? relative : directory + "/" + relative)
    }

    /// Whether a normalized path lies inside a normalized folder (lexically:
    /// `..` that climbs out of it, or a different absolute prefix, is outside).
    public static func isInside(_ path: String, root: String) -> Bool {
        if root == "." || root.isEmpty { return !path.hasPrefix("/") && path != ".." && !path.hasPrefix("../") }
        if root == "/" { return path.hasPrefix("/") }
        return path == root || path.hasPrefix(root + "/")
    }

    /// Removes `.` and empty components and folds `name/..`; a leading `..`
    /// that cannot fold is kept.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                if let last = components.last, last != ".." {
                    components.removeLast()
                } else if !absolute {
                    components.append(component)
                }
            default:
                components.append(component)
            }
        }
        let joined = components.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
