import StorekeeperCore
import StorekeeperPlatform

/// Messages for people, written to file descriptor 2 so that standard output
/// carries only the JSON report.
///
/// It writes through the descriptor rather than C's `stderr` stream: the
/// line must be out before a self-inflicted SIGKILL, and C's stream is a
/// global that Swift 6's strict concurrency checking rejects.
enum StandardError {
    /// Writes `line` and a newline, ignoring failures (there is nowhere to report them).
    static func print(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
