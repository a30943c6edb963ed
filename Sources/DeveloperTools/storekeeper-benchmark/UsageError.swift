/// A command line that does not say what to do: the message and the usage go to standard error, with exit status 2.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong with the command line.
    let description: String

    /// Creates an error with the given message.
    init(_ description: String) {
        self.description = description
    }

    /// Reads a positive integer, or throws an error that names the argument.
    static func positiveInteger(_ text: String, for name: String) throws(UsageError) -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError("\(name) must be a positive whole number, not '\(text)'")
        }
        return value
    }
}
