import ArgumentParser
import StorekeeperTooling

/// The YAML limits, settable from the command line.
///
/// ArgumentParser adds `(default: ...)` to the help of an option with a
/// default, so the help texts do not state it again; `--max-total-size` has
/// none of its own (it follows `--max-file-size`), and says so.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-file-size"), help: ArgumentHelp("The largest catalog or fragment file read.", valueName: "size"))
    var maxFileSize: FileSize = FileSize(bytes: YAMLLimits.default.maxFileSize)

    @Option(name: .customLong("max-total-size"), help: ArgumentHelp("The most read for a catalog and its fragments together (default 64MiB, or --max-file-size when larger).", valueName: "size"))
    var maxTotalSize: FileSize?

    // .unconditional: `--max-depth -3` is a value to refuse clearly, not a missing one.
    @Option(name: .customLong("max-depth"), parsing: .unconditional, help: "The deepest nesting of lists and mappings.")
    var maxDepth: Int = YAMLLimits.default.maxDepth

    @Option(name: .customLong("max-alias-expansion"), parsing: .unconditional, help: "How many nodes aliases and merge keys may add.")
    var maxAliasExpansion: Int = YAMLLimits.default.maxAliasExpansion

    func validate() throws {
        guard maxFileSize.bytes <= YAMLLimits.largestFileSize else {
            throw ValidationError("--max-file-size can be at most 1GiB")
        }
        guard maxDepth >= 1 else { throw ValidationError("--max-depth must be at least 1") }
        guard maxAliasExpansion >= 0 else { throw ValidationError("--max-alias-expansion must be 0 or more") }
    }

    var limits: YAMLLimits {
        YAMLLimits(maxFileSize: maxFileSize.bytes, maxDepth: maxDepth, maxAliasExpansion: maxAliasExpansion, maxTotalSize: maxTotalSize?.bytes)
    }
}

/// A size on the command line: `16MiB`, `512KiB`, `2GB`, `100000`.
struct FileSize: ExpressibleByArgument {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let units: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1)]
        var number = argument
        var factor = 1
        for (suffix, value) in units where argument.hasSuffix(suffix) {
            number = String(argument.dropLast(suffix.count))
            factor = value
            break
        }
        guard let count = Int(number), count > 0, count <= Int.max / factor else { return nil }
        bytes = count * factor
    }

    /// The size as it would be typed: in the largest binary unit that holds
    /// it whole (`16MiB`), else in bytes; `--help` shows defaults this way.
    var defaultValueDescription: String {
        for (suffix, unit) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes % unit == 0 {
            return "\(bytes / unit)\(suffix)"
        }
        return "\(bytes)"
    }
}
