import StorekeeperTooling

/// The command line of `storekeeper-codegen`, read by hand: the tool links no
/// argument parser, so that an app's first build with the plugin stays short.
struct CodegenArguments: Equatable {
    /// The file to write: Swift, or with `--policy` the compiled policy.
    var output: String
    /// Catalog files, and directories searched for catalogs.
    var paths: [String]
    /// A `storekeeper-codegen.json` to read.
    var settings: String?
    /// `--access`, which wins over the settings file.
    var access: AccessLevel?
    /// `--no-type-aliases`.
    var noTypeAliases = false
    /// `--source-root`: paths in generated comments are relative to it.
    var sourceRoot: String?
    /// `--policy`: write the one catalog's compiled policy (JSON) instead of Swift.
    var emitsPolicy = false

    /// What `--help` prints, and what follows a usage error.
    static let usage = """
        usage: storekeeper-codegen --output FILE [OPTION...] [--] PATH...
               storekeeper-codegen --policy --output FILE [--] PATH...

        Validates catalogs as `storekeeper validate` does (format and policy rules, with the
        storekeeper.yml found beside or above each catalog), then writes typed Swift for them:
        one enum per catalog with its products, features, balances and subscription groups.
        Diagnostics go to standard error as `file:line:column: error: message [rule-id]`.
        With --policy it writes the compiled policy of the one catalog instead (the JSON of
        `storekeeper compile --compact`), which StorekeeperPolicyPlugin bundles with an app.
        On any error nothing is written. The file is rewritten only when its content changes.

        PATH is a catalog file, or a directory searched for catalogs (every .yaml or .yml file
        with a top-level `catalog` key). A directory with no catalog is an error only when no
        PATH and no settings file gives one.

        options:
          --output FILE         The file to write (required).
          --policy              Write the compiled policy (JSON) of the one catalog, not Swift.
          --settings FILE       A storekeeper-codegen.json: "access", "typeAliases", and
                                "catalogs" (paths relative to it) generated too.
          --access LEVEL        internal (the default), package or public. Wins over --settings.
          --no-type-aliases     No top-level Product, Feature and Balance, even for one catalog.
          --source-root DIR     Write paths in the generated comments relative to DIR.
          -h, --help            Show this help.

        exit status: 0 written (or unchanged), 1 the catalogs have errors, 2 could not run.
        """

    /// The outcome of reading the command line.
    enum Parsed: Equatable {
        case run(CodegenArguments)
        case help
    }

    /// A command line that is not valid, with what to write instead.
    struct UsageError: Error, Equatable {
        var message: String
    }

    /// Reads the arguments (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var output: String?
        var parsed = CodegenArguments(output: "", paths: [])
        var index = arguments.startIndex
        func value(for option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.endIndex, !arguments[index].isEmpty else {
                throw UsageError(message: "\(option) needs a value")
            }
            return arguments[index]
        }
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.paths.append(argument)
                index += 1
                continue
            }
            switch argument {
            case "--":
                optionsEnded = true
            case "-h", "--help":
                return .help
            case "--output", "-o":
                output = try value(for: "--output")
            case "--settings":
                parsed.settings = try value(for: "--settings")
            case "--access":
                let text = try value(for: "--access")
                guard let access = AccessLevel(rawValue: text) else {
                    throw UsageError(message: "--access is internal, package or public, not '\(text)'")
                }
                parsed.access = access
            case "--no-type-aliases":
                parsed.noTypeAliases = true
            case "--source-root":
                parsed.sourceRoot = try value(for: "--source-root")
            case "--policy":
                parsed.emitsPolicy = true
            default:
                throw UsageError(message: "unknown option '\(argument)'")
            }
            index += 1
        }
        guard let output else { throw UsageError(message: "name the file to write with --output FILE") }
        guard !parsed.paths.isEmpty || parsed.settings != nil else {
            throw UsageError(message: "name at least one catalog file or directory")
        }
        parsed.output = output
        return .run(parsed)
    }
}
