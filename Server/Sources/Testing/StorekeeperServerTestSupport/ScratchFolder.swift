public import Foundation

/// A folder of its own under the temporary folder for one test's files, removed when the body
/// returns or throws: the server's tests' one home for scratch space (the main package's
/// `ScratchFolder` is in a test target this package cannot depend on).
public enum ScratchFolder {
    /// Runs `body` with a new, empty folder whose name starts with `prefix`.
    public static func with<T>(prefix: String = "storekeeper-server", _ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }
}

extension URL {
    /// Writes `text` to the file `name` in this folder and returns its path.
    public func writing(_ text: String, to name: String) throws -> String {
        let file = appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}
