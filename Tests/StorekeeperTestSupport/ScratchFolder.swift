import Foundation

/// A folder of its own under the system's temporary folder, for one test's
/// files; removed when the body returns or throws.
public enum ScratchFolder {
    /// Runs `body` with a new, empty folder whose name starts with `prefix`.
    public static func with<T>(prefix: String = "storekeeper", _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}
