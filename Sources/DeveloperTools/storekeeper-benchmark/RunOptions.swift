/// The settings of `storekeeper-benchmark run`.
struct RunOptions: Sendable, Equatable {
    /// The `storekeeper` executable to measure; `nil` for the one next to this benchmark's executable.
    var storekeeper: String?
    /// The catalog sizes, in products.
    var sizes = [10_000, 100_000]
    /// The sizes, in products, of the catalogs in which every product writes `prise:` for `price:`;
    /// empty to skip them.
    var typoSizes = [10_000, 40_000]
    /// How many measured rounds (one scan, one format-only validation, one validation, one compilation)
    /// for each size, after the warm-up round.
    var repetitions = 7
    /// Where the generated catalogs are written.
    var outputDirectory = ".build/benchmark"

    /// Reads the options from the arguments that follow `run`.
    ///
    /// Each option takes a value, as the next argument or after `=`: `--repeat 7` or `--repeat=7`.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing value or a value out of range.
    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        for (name, value) in try OptionArguments.pairs(arguments) {
            switch name {
            case "--storekeeper":
                guard !value.isEmpty else { throw UsageError("--storekeeper needs a path") }
                storekeeper = value
            case "--sizes":
                sizes = try value.split(separator: ",", omittingEmptySubsequences: false).map {
                    (size) throws(UsageError) in try UsageError.positiveInteger(String(size), for: "each of --sizes")
                }
            case "--typo-sizes":
                typoSizes = value == "none" ? [] : try value.split(separator: ",", omittingEmptySubsequences: false).map {
                    (size) throws(UsageError) in try UsageError.positiveInteger(String(size), for: "each of --typo-sizes")
                }
            case "--repeat":
                repetitions = try UsageError.positiveInteger(value, for: "--repeat")
            case "--out":
                guard !value.isEmpty else { throw UsageError("--out needs a directory") }
                outputDirectory = value
            default:
                throw UsageError("unknown option '\(name)'")
            }
        }
    }
}
