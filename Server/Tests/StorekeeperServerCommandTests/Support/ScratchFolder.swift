import Foundation

/// A folder of its own under the temporary folder for one test's files, removed afterwards.
enum ScratchFolder {
    static func with<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-server-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }
}

extension URL {
    /// Writes `text` to the file `name` in this folder and returns its path.
    func writing(_ text: String, to name: String) throws -> String {
        let file = appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}
