/// The settings of `storekeeper-benchmark lookups`.
struct LookupOptions: Sendable, Equatable {
    /// The number of products in the generated catalog.
    var products = 10_000
    /// The number of transactions each loop dispatches, per round.
    var transactions = 1_000_000
    /// How many measured rounds (each loop once) after the warm-up round.
    var repetitions = 15

    /// Reads the options from the arguments that follow `lookups`: `--products N`, `--transactions N`,
    /// `--repeat N`, each value as the next argument or after `=`.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing value or a value out of range.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        for (name, value) in try OptionArguments.pairs(arguments) {
            switch name {
            case "--products":
                products = try UsageError.positiveInteger(value, for: "--products")
            case "--transactions":
                transactions = try UsageError.positiveInteger(value, for: "--transactions")
            case "--repeat":
                repetitions = try UsageError.positiveInteger(value, for: "--repeat")
            default:
                throw UsageError("unknown option '\(name)'")
            }
        }
    }
}
