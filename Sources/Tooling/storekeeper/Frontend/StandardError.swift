import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPlatform

/// Writing to the standard streams without Foundation.
enum StandardError {
    /// Writes text to standard error.
    static func write(_ text: String) { put(text, to: 2) }
}

enum StandardOutput {
    /// Writes text to standard output, all of it.
    static func write(_ text: String) { put(text, to: 1) }

    /// Whether standard output is a terminal.
    static var isTerminal: Bool { isatty(1) == 1 }
}

private func put(_ text: String, to descriptor: Int32) {
    // A stream that cannot be written (closed, full) has no one to tell.
    DescriptorWriting.writeAll(text, to: descriptor)
}

/// The process environment as a dictionary.
enum Environment {
    static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The current directory, for output that names files relative to it (SARIF).
    static var workingDirectory: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension StandardError {
    /// Whether standard error is a terminal.
    static var isTerminal: Bool { isatty(2) == 1 }
}
