import StorekeeperTooling

/// Writing to the standard streams without Foundation.
package enum StandardError {
    /// Writes text to standard error.
    package static func write(_ text: String) { put(text, to: 2) }
}

/// Standard output: every command's output goes through ``write(_:what:)``,
/// the one place that decides what a failed write means.
package enum StandardOutput {
    /// Writes all of `text` to standard output. When it cannot be written (a
    /// full disk, a closed stream), says so on standard error, naming `what`
    /// (`the report`), and ends the run with exit status 2: output cut short
    /// must not pass for a run that worked, nor a report that never arrived
    /// for a catalog without errors.
    package static func write(_ text: String, what: String) {
        guard let code = DescriptorWriting.writeAll(text, to: 1) else { return }
        StandardError.write("storekeeper: error: could not write \(what) to standard output: \(String(cString: strerror(code)))\n")
        exit(2)
    }

    /// Whether standard output is a terminal.
    package static var isTerminal: Bool { isatty(1) == 1 }
}

private func put(_ text: String, to descriptor: Int32) {
    // Standard error that cannot be written (closed, full) has no one to tell.
    DescriptorWriting.writeAll(text, to: descriptor)
}

/// The process environment as a dictionary.
package enum Environment {
    package static var current: [String: String] {
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
    package static var workingDirectory: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension StandardError {
    /// Whether standard error is a terminal.
    package static var isTerminal: Bool { isatty(2) == 1 }
}
