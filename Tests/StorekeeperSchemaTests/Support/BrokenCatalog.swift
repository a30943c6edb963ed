import Foundation

/// A file of `Fixtures/broken/`: a catalog (or, named `*.fragment.yaml`, a
/// fragment) with one problem, and what `storekeeper validate` reports for
/// it, from its first line: `# expect: RULE LINE:COLUMN`.
struct BrokenCatalog: Sendable, CustomStringConvertible {
    var name: String
    var file: URL
    var rule: String
    var line: Int
    var column: Int
    /// A fragment is validated through a catalog that includes it.
    var isFragment: Bool { name.hasSuffix(".fragment") }

    var description: String { name }

    /// Every fixture, by name; nil entries are fixtures whose header cannot be read.
    static func load() throws -> [BrokenCatalog] {
        let files = try FileManager.default.contentsOfDirectory(at: SchemaTestPaths.brokenFixtures, includingPropertiesForKeys: nil)
        return try files.filter { $0.pathExtension == "yaml" }.sorted { $0.path < $1.path }.map(read)
    }

    static func read(_ file: URL) throws -> BrokenCatalog {
        let text = try String(contentsOf: file, encoding: .utf8)
        let header = text.prefix { $0 != "\n" }
        let words = header.split(separator: " ")
        let place = words.last?.split(separator: ":").compactMap { Int($0) } ?? []
        guard words.count == 4, words[0] == "#", words[1] == "expect:", place.count == 2 else {
            throw PythonSchemaValidator.Failure(description: "\(file.lastPathComponent) does not start with `# expect: RULE LINE:COLUMN`")
        }
        return BrokenCatalog(
            name: String(file.deletingPathExtension().lastPathComponent), file: file,
            rule: String(words[2]), line: place[0], column: place[1])
    }
}
