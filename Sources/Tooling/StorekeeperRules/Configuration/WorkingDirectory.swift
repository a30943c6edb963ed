import StorekeeperCatalog
import StorekeeperCore
import StorekeeperPlatform

/// The process's current directory, for turning the paths users give
/// (relative or absolute) into one absolute form that can be compared.
/// Lexical only, like `SourcePath`: symbolic links are not resolved.
enum WorkingDirectory {
    /// The current directory, or nil when the system cannot say (it was removed).
    static func current() -> String? {
        // PATH_MAX is 4096 on Linux and 1024 on Darwin; grow once for deeper trees.
        for size in [4096, 65_536] {
            var buffer = [CChar](repeating: 0, count: size)
            let found = buffer.withUnsafeMutableBufferPointer { pointer -> Bool in
                guard let base = pointer.baseAddress else { return false }
                return getcwd(base, size) != nil
            }
            if found {
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if errno != ERANGE { return nil }
        }
        return nil
    }

    /// `path` made absolute against `directory` (when relative) and normalized.
    /// Without a directory a relative path stays relative.
    static func absolute(_ path: String, from directory: String?) -> String {
        if path.hasPrefix("/") { return SourcePath.normalize(path) }
        guard let directory else { return SourcePath.normalize(path) }
        return SourcePath.normalize(directory + "/" + path)
    }
}
