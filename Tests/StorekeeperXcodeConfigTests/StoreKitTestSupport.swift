import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperXcodeConfig
import Testing

/// The real StoreKit configuration files in `Fixtures/` (see its SOURCES.md),
/// read through this file's path so that no bundle is needed.
enum StoreKitFixtures {
    static let directory: String = {
        var path = #filePath
        if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        return path + "/Fixtures"
    }()

    static let flutter = "flutter-in-app-purchase-example.storekit"
    static let revenueCat = "revenuecat-unit-tests.storekit"
    static let all = [flutter, revenueCat]

    static func path(_ name: String) -> String { directory + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    /// The file as Foundation's own JSON parser reads it: the test's
    /// independent view of what the file says.
    static func json(_ name: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes(name))) as? [String: Any])
    }
}

/// Reads and imports text, failing the test on reader errors.
func readConfiguration(_ text: String, file: String = "test.storekit", sourceLocation: Testing.SourceLocation = #_sourceLocation) -> StoreKitReader.Result {
    StoreKitReader().read(Array(text.utf8), file: file)
}

/// A fixture read, imported, and the import's catalog.
struct ImportedFixture {
    var read: StoreKitReader.Result
    var configuration: StoreKitConfiguration
    var imported: StoreKitImport
    var catalog: Catalog

    init(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        read = StoreKitReader().read(try StoreKitFixtures.bytes(name), file: name)
        configuration = try #require(read.configuration, "\(read.diagnostics)", sourceLocation: sourceLocation)
        imported = StoreKitImporter().importCatalog(from: configuration)
        catalog = try #require(imported.catalog, "\(imported.diagnostics)", sourceLocation: sourceLocation)
    }

    /// Every diagnostic of reading and importing.
    var diagnostics: [Diagnostic] { read.diagnostics + imported.diagnostics }
}

/// Diagnostics one per line, for failure messages.
func describe(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map { "\($0.location): \($0.severity.rawValue): \($0.message) [\($0.rule)]" }.joined(separator: "\n")
}

/// The 1-based line and column where `needle` occurs (the `occurrence`th time) in `text`.
func position(of needle: String, in text: String, occurrence: Int = 1) -> (line: Int, column: Int)? {
    var seen = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var rest = line[...]
        var offset = 0
        while let range = rest.range(of: needle) {
            seen += 1
            let column = offset + rest.unicodeScalars[rest.startIndex..<range.lowerBound].count + 1
            if seen == occurrence { return (index + 1, column) }
            offset = column
            rest = rest[rest.index(after: range.lowerBound)...]
        }
    }
    return nil
}

extension Diagnostic {
    /// Whether the diagnostic, or one of its notes, is at `line`:`column`.
    func isAt(line: Int, column: Int) -> Bool {
        (location.line == line && location.column == column) || notes.contains { $0.location.line == line && $0.location.column == column }
    }
}
