import ArgumentParser
import StorekeeperCommandLine

/// The `storekeeper` command: validates in-app purchase catalogs.
@main
struct Storekeeper: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper",
        abstract: "Validate in-app purchase catalogs and run their policy.",
        discussion: "Exit status: 0 when no error was found, 1 when any was, 2 when the command could not run.",
        version: ToolVersion.current,
        subcommands: [Validate.self, Compile.self, Explain.self, Simulate.self, Diff.self, Schema.self, Import.self, Export.self, Rules.self]
    )

    /// Parses and runs, mapping every failure to the documented exit status (``CommandEntry``).
    static func main() {
        CommandEntry.main(Self.self)
    }
}
