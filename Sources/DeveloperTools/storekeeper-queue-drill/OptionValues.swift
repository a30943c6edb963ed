/// A subcommand's options, read as name and value pairs (`--seed 7` or
/// `--seed=7`), each looked up once by name so that an unknown or repeated
/// option is an error rather than silently ignored.
struct OptionValues {
    private var values: [String: String] = [:]
    private let command: String

    /// Reads `arguments` for `command`, accepting only the names in `known` (with their `--`).
    init(_ arguments: ArraySlice<String>, command: String, known: Set<String>) throws(UsageError) {
        self.command = command
        var remaining = arguments
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else { throw UsageError("\(command): unexpected argument '\(argument)'") }
            let name: String
            let value: String
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
                guard let next = remaining.popFirst() else { throw UsageError("\(command): \(argument) needs a value") }
                value = next
            }
            guard known.contains(name) else {
                throw UsageError("\(command): unknown option '\(name)' (it takes \(known.sorted().joined(separator: ", ")))")
            }
            guard values[name] == nil else { throw UsageError("\(command): \(name) is given twice") }
            values[name] = value
        }
    }

    /// The text of an option, if given.
    func text(_ name: String) -> String? { values[name] }

    /// The text of an option that must be given.
    func required(_ name: String) throws(UsageError) -> String {
        guard let value = values[name] else { throw UsageError("\(command): \(name) is required") }
        return value
    }

    /// A whole number of at least `minimum`, if given.
    func integer(_ name: String, atLeast minimum: Int) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw UsageError("\(command): \(name) must be a whole number of at least \(minimum), not '\(text)'")
        }
        return value
    }

    /// A seed (any 64-bit unsigned number), if given.
    func seed(_ name: String) throws(UsageError) -> UInt64? {
        guard let text = values[name] else { return nil }
        guard let value = UInt64(text) else {
            throw UsageError("\(command): \(name) must be a whole number from 0 to \(UInt64.max), not '\(text)'")
        }
        return value
    }

    /// A probability (0 to 1), if given.
    func probability(_ name: String) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value >= 0, value <= 1 else {
            throw UsageError("\(command): \(name) must be a number from 0 to 1, not '\(text)'")
        }
        return value
    }
}
