public import Foundation

/// A folder of its own under the system's temporary folder, for one test's
/// files; removed when the body returns or throws.
public enum ScratchFolder {
    /// Runs `body` with a new, empty folder whose name starts with `prefix`.
    public static func with<T>(prefix: String = "storekeeper", _ body: (URL) throws -> T) throws -> T {
        let folder = try create(prefix: prefix)
        defer { remove(folder) }
        return try body(folder)
    }

    /// A new, empty folder whose name starts with `prefix`, for a test or a
    /// harness whose life is not one closure (an `async` test, a harness
    /// removed in its `deinit`); the caller removes it with ``remove(_:)``.
    public static func create(prefix: String = "storekeeper") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes a folder ``create(prefix:)`` made, and what it holds.
    public static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }
}
