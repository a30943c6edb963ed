import StorekeeperTooling

/// The source lines the text reporter quotes: only the lines diagnostics
/// and their notes point at, read from the files that have them. Each file
/// is read once and let go before the next, so quoting a few lines of a
/// 1 GiB file keeps those lines, not the file split into millions of strings.
enum SourceLines {
    /// Files over `limit` (the size limit the run used) are not read again:
    /// their only diagnostic is that they are too large.
    static func provider(for report: ValidationReport, reader: any SourceReader, limit: Int) -> TextReporter.SourceLineProvider {
        var wanted: [String: Set<Int>] = [:]
        for diagnostic in report.diagnostics {
            wanted[diagnostic.location.file, default: []].insert(diagnostic.location.line)
            for note in diagnostic.notes { wanted[note.location.file, default: []].insert(note.location.line) }
        }
        var kept: [String: [Int: String]] = [:]
        for (file, lines) in wanted {
            guard let bytes = try? reader.read(file, limit: limit) else { continue }
            kept[file] = self.lines(lines, of: YAMLParser.utf8Text(of: bytes))
        }
        let quoted = kept
        return { file, line in quoted[file]?[line] }
    }

    /// The lines numbered `numbers` (1-based) of UTF-8 `text`, split at `\n`
    /// with a `\r` before it dropped; numbers past the end are left out.
    static func lines(_ numbers: Set<Int>, of text: [UInt8]) -> [Int: String] {
        guard let last = numbers.max(), last >= 1 else { return [:] }
        var found: [Int: String] = [:]
        text.withUnsafeBufferPointer { buffer in
            var line = 1
            var start = 0
            while line <= last, start <= buffer.count {
                let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
                if numbers.contains(line) {
                    var stop = end
                    if stop > start, buffer[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
                    found[line] = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<stop]), as: UTF8.self)
                }
                line += 1
                start = end + 1
            }
        }
        return found
    }
}
