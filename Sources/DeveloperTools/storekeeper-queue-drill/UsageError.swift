/// A command line that does not say what to do: the message and the usage go
/// to standard error, with exit status 2.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong with the command line.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
