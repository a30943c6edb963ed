import StorekeeperCommandLine
import StorekeeperTooling

/// `--output`: the CLI's side of ``WholeFileWriter`` (written whole or not at
/// all, never through a planted link, only over a regular file), with its
/// failures as `CommandFailure`s (exit status 2).
enum OutputFile {
    /// Throws when `path` cannot be written (not a regular file, no folder,
    /// a name that is not UTF-8), so that a command says so before its work.
    static func check(_ path: String) throws(CommandFailure) {
        if let problem = WholeFileWriter.problem(writingTo: path) { throw CommandFailure(message: "--output \(path): \(problem)") }
    }

    /// Replaces the file at `path` with `text`.
    static func save(_ text: String, to path: String) throws(CommandFailure) {
        do {
            try WholeFileWriter.write(text, to: path)
        } catch {
            throw CommandFailure(message: error.message)
        }
    }

    /// The first of `inputs` that is the same file as `path`, if `path` exists.
    static func sameFile(_ path: String, asAnyOf inputs: [String]) -> String? {
        WholeFileWriter.sameFile(path, asAnyOf: inputs)
    }
}
