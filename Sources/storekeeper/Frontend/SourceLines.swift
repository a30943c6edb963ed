import StorekeeperCatalog
import StorekeeperDiagnostics

/// The source lines the text reporter quotes, read only for files that
/// have diagnostics.
enum SourceLines {
    static func provider(for report: ValidationReport, reader: any SourceReader) -> TextReporter.SourceLineProvider {
        var files = Set<String>()
        for diagnostic in report.diagnostics {
            files.insert(diagnostic.location.file)
            for note in diagnostic.notes { files.insert(note.location.file) }
        }
        var contents: [String: String] = [:]
        for file in files {
            guard let bytes = try? reader.read(file, limit: 1 << 30) else { continue }
            contents[file] = String(decoding: bytes, as: UTF8.self)
        }
        return TextReporter.sourceLines(from: contents)
    }
}
