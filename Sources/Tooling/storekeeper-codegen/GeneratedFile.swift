import StorekeeperTooling

/// Writes the generated Swift only when it differs from what the file
/// holds, so that an unchanged catalog leaves the file (and its modification
/// time) alone and the build does not compile it again; and through
/// ``WholeFileWriter``, as the CLI's `--output` does: whole or not at all,
/// never through a planted link, only over a regular file.
enum GeneratedFile {
    /// Why the file could not be written.
    struct Failure: Error {
        var message: String
    }

    /// Writes `text` to `path` unless the file already holds exactly it.
    /// `path` must not be one of `inputs` (the catalogs, fragments and
    /// settings read), however it is spelt or linked.
    /// `what` names the output in messages: "Swift", or "policy" with `--policy`.
    static func save(_ text: String, to path: String, reader: any SourceReader, inputs: [String] = [], what: String = "Swift") throws(Failure) {
        // Before any folder is made: under a name that is not the one typed, none would be right.
        if let problem = WholeFileWriter.nameProblem(path) {
            throw Failure(message: "cannot write \(path): \(problem)")
        }
        try createFolders(above: path)
        // Checked before the file is read for comparison: a link is not followed, even to read.
        if let problem = WholeFileWriter.problem(writingTo: path) {
            throw Failure(message: "cannot write \(path): \(problem)")
        }
        if let input = WholeFileWriter.sameFile(path, asAnyOf: inputs) {
            throw Failure(message: "cannot write \(path): it is \(input), which the \(what) is generated from; write the \(what) elsewhere")
        }
        let bytes = text.utf8
        if let existing = try? reader.read(path, limit: bytes.count), existing.elementsEqual(bytes) { return }
        do {
            try WholeFileWriter.write(text, to: path)
        } catch {
            throw Failure(message: error.message)
        }
    }

    /// Creates the folders `path` is in that do not exist yet (`--output
    /// Generated/Catalogs.swift` on a fresh clone), as `mkdir -p` would.
    private static func createFolders(above path: String) throws(Failure) {
        var folder = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, part) in parts.enumerated() {
            folder += (index == 0 ? "" : "/") + part
            guard !part.isEmpty, part != ".", part != ".." else { continue }
            if mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw Failure(message: "cannot create the folder \(folder) for \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
