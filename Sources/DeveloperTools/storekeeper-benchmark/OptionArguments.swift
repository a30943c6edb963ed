/// The options of a benchmark command, read as name and value pairs: `--repeat 7` or `--repeat=7`.
enum OptionArguments {
    /// The options in `arguments`, in order, each a name (with its `--`) and its value.
    ///
    /// Each option takes a value, as the next argument or after `=`.
    ///
    /// - Throws: ``UsageError`` for an argument that is not an option, or an option without a value.
    static func pairs(_ arguments: ArraySlice<String>) throws(UsageError) -> [(name: String, value: String)] {
        var remaining = arguments
        var pairs: [(name: String, value: String)] = []
        while let argument = remaining.popFirst() {
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                pairs.append((String(argument[..<equals]), String(argument[argument.index(after: equals)...])))
            } else {
                guard argument.hasPrefix("--") else { throw UsageError("unexpected argument '\(argument)'") }
                guard let next = remaining.popFirst() else { throw UsageError("\(argument) needs a value") }
                pairs.append((argument, next))
            }
        }
        return pairs
    }
}
