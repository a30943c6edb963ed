/// The benchmark's command line: `[--payloads N] [--python-payloads N] [--tasks N] [--no-python]`.
struct BenchmarkOptions {
    /// How many signed transactions the verifier verifies in process.
    var payloads = 50_000
    /// How many of them Apple's Python library verifies (it is much slower).
    var pythonPayloads = 2_000
    /// How many tasks verify at once in the parallel run (default: the processors).
    var tasks: Int?
    /// Whether to run Apple's Python library at all.
    var python = true

    static let usage = """
        usage: storekeeper-server-benchmark [--payloads N] [--python-payloads N] [--tasks N] [--no-python]
          Verifies N signed transactions (default 50000) with StorekeeperVerification in process, one task
          and then --tasks tasks (default: one per processor), and the first --python-payloads of them
          (default 2000) with Apple's App Store Server Library for Python; prints the rates and their ratio.
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        func count(_ option: String) throws(UsageError) -> Int {
            guard let text = remaining.popFirst(), let value = Int(text), value > 0 else {
                throw UsageError(description: "\(option) takes a positive whole number\n\(Self.usage)")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--payloads": payloads = try count(argument)
            case "--python-payloads": pythonPayloads = try count(argument)
            case "--tasks": tasks = try count(argument)
            case "--no-python": python = false
            default: throw UsageError(description: "unknown argument '\(argument)'\n\(Self.usage)")
            }
        }
        pythonPayloads = min(pythonPayloads, payloads)
    }
}
