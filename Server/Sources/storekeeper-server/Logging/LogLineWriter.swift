import Foundation
import Synchronization

/// Writes whole log lines to one file descriptor (standard error), one line at a time, so that
/// lines from several threads never interleave, and with every configured secret's text replaced
/// by `***`: the last guard against a library that logs a connection string or a header.
final class LogLineWriter: Sendable {
    /// The file written, behind a lock so that lines never interleave (Synchronization's Mutex).
    private let handle: Mutex<FileHandle>
    private let secrets: [String]

    /// - Parameter secrets: texts never to write; those shorter than 4 characters are ignored, since
    ///   replacing them would mangle every line without protecting anything.
    init(handle: FileHandle = .standardError, secrets: [String]) {
        self.handle = Mutex(handle)
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    /// Writes `line` and a line break.
    func write(_ line: String) {
        var text = line
        for secret in secrets where text.contains(secret) { text = text.replacingOccurrences(of: secret, with: "***") }
        text.append("\n")
        let data = Data(text.utf8)
        handle.withLock { $0.write(data) }
    }
}
