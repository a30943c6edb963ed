import Foundation

/// Writing to standard output and standard error unbuffered, so that what the command says is out
/// before it exits.
enum StandardStreams {
    /// Writes `text` to standard output.
    static func writeOutput(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

    /// Writes `text` to standard error.
    static func writeError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
