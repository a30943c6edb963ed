/// Why the command cannot run as given (exit status 2): a flag, variable or configuration key with a
/// value that cannot work, said with what would be right. Never carries a secret's value.
struct UsageError: Error, CustomStringConvertible {
    var message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
