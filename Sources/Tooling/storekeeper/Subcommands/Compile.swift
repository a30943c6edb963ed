import ArgumentParser
import StorekeeperCommandLine
import StorekeeperTooling

/// `storekeeper compile CATALOG --output policy.json`: the catalog's plans as versioned JSON.
struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compile a catalog into its plans, as versioned JSON an app loads without YAML.",
        discussion: """
            The catalog is validated first, as `storekeeper validate` does (with its storekeeper.yml, \
            whose `steps` name the plugin steps an app registers); on any error nothing is written. \
            The format is described in docs/policy-format.md, its JSON Schema in docs/policy.schema.json.

            A policy is at most 256 MiB (what apps read); a larger one is not written. \
            Exit status: 0 when the policy was written, 1 when the catalog has errors, 2 when the \
            command could not run (the policy would be over 256 MiB, say).
            """
    )

    @Argument(help: "The catalog file (or a directory holding one catalog).")
    var catalog: String

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the policy (standard output when not given). Written whole or not at all.", valueName: "file"))
    var output: String?

    @Flag(help: "Write the JSON on one line instead of indented.")
    var compact = false

    @Option(name: .customLong("config"), help: ArgumentHelp("The configuration to use instead of the storekeeper.yml found beside the catalog.", valueName: "path"))
    var configuration: String?

    @Option(help: "Colour in diagnostics: auto, always or never.")
    var color: ColorChoice = .auto

    @OptionGroup var limits: LimitOptions

    func run() throws {
        let loaded = try PolicySource(path: catalog, configuration: configuration, limits: limits, color: color).load()
        guard !loaded.wasCompiled else {
            throw CommandFailure(message: "\(catalog) is already a compiled policy; compile the catalog it came from")
        }
        let policy = loaded.policy
        let encoder = PolicyEncoder(indentation: compact ? nil : 2)
        // The document is kept until exit, like everything else: freeing
        // 10,000 products' JSON values would only delay the exit.
        let document = encoder.document(policy)
        let json: String
        do {
            json = try encoder.checkedSerialize(document)
        } catch {
            throw CommandFailure(message: "\(catalog): \(error.description); nothing was written")
        }
        if let output {
            if let input = OutputFile.sameFile(output, asAnyOf: loaded.inputs) {
                throw CommandFailure(message: "--output \(output) is \(input), which the policy was compiled from; write the policy elsewhere")
            }
            try OutputFile.save(json, to: output)
        } else {
            StandardOutput.write(json, what: "the policy")
        }
        ProcessExit.now(0, keeping: (policy, document))
    }
}
