import StorekeeperCore
import StorekeeperPlatform

/// A failure that ends a benchmark command, with a message for the person running it.
struct BenchmarkError: Error, CustomStringConvertible {
    /// What went wrong, and where possible what to do about it.
    let description: String

    /// Creates an error with the given message.
    init(_ description: String) {
        self.description = description
    }

    /// An error for a failed system call, with the system's own wording of `code`.
    ///
    /// - Parameters:
    ///   - call: The name of the call that failed, such as `open`.
    ///   - subject: What it was called on, usually a path.
    ///   - code: The `errno` value (or the error number `posix_spawn` returned).
    static func system(_ call: String, _ subject: String, code: Int32) -> BenchmarkError {
        BenchmarkError("\(call) \(subject): \(String(cString: strerror(code)))")
    }
}
