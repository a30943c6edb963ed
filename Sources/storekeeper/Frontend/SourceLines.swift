import StorekeeperCatalog
import StorekeeperDiagnostics
import StorekeeperYAML

/// The source lines the text reporter quotes, read only for files that
/// have diagnostics.
enum SourceLines {
    /// Files over `limit` (the size limit the run used) are not read again:
    /// their only diagnostic is that they are too large.
    static func provider(for report: ValidationReport, reader: any SourceReader, limit: Int) -> TextReporter.SourceLineProvider {
        var files = Set<String>()
        for diagnostic in report.diagnostics {
            files.insert(diagnostic.location.file)
            for note in diagnostic.notes { files.insert(note.location.file) }
        }
        var contents: [String: String] = [:]
        for file in files {
            guard let bytes = try? reader.read(file, limit: limit) else { continue }
            contents[file] = String(decoding: YAMLParser.utf8Text(of: bytes), as: UTF8.self)
        }
        return TextReporter.sourceLines(from: contents)
    }
}
