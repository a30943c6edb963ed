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
    ///
    /// Compared byte for byte: Swift's `String` equality treats canonically
    /// equivalent spellings (`café` composed and decomposed) as equal, while
    /// the file system treats them as two names. A root made of `..` only
    /// (`..`, `../..`) holds nothing that climbs further.
    public static func isInside(_ path: String, root: String) -> Bool {
        let path = Array(path.utf8), root = Array(root.utf8)
        let dotDot = Array("..".utf8), slash = UInt8(ascii: "/")
        func climbs(_ bytes: [UInt8]) -> Bool { bytes == dotDot || bytes.starts(with: dotDot + [slash]) }
        if root == Array(".".utf8) || root.isEmpty { return path.first != slash && !climbs(path) }
        if root == [slash] { return path.first == slash }
        guard path == root || path.starts(with: root + [slash]) else { return false }
        // Below a root of `..` parts, a further `..` climbs out of it.
        if root.split(separator: slash).allSatisfy({ Array($0) == dotDot }) {
            return !path.dropFirst(root.count).split(separator: slash).contains { Array($0) == dotDot }
        }
        return true
    }

    /// The first component of `path` below `root` (which holds it) that
    /// starts with a dot, or nil when none does.
    public static func hiddenComponent(of path: String, below root: String) -> String? {
        let below = path.utf8.dropFirst(root == "/" ? 1 : root.utf8.count + 1)
        return below.split(separator: UInt8(ascii: "/")).lazy
            .map { String(decoding: $0, as: UTF8.self) }
            .first { $0.hasPrefix(".") && $0 != "." && $0 != ".." }
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

/// A path as a key in a set or dictionary, by its bytes: `String`'s own
/// hashing and equality treat canonically equivalent spellings (`café`
/// composed and decomposed) as one, while the file system holds them as two
/// files, so a set of `String` paths would skip one of them.
public struct PathKey: Hashable, Sendable {
    /// The path's UTF-8 bytes.
    public let bytes: [UInt8]

    /// The key of `path`.
    public init(_ path: String) { bytes = Array(path.utf8) }
}
