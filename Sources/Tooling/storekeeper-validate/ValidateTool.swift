import ArgumentParser
import StorekeeperCommandLine

/// The validate command plugin's tool: `storekeeper validate`, the very
/// command, without the rest of the CLI. The plugin runs it as
/// `storekeeper validate ARG...`, and SwiftPM builds it for the host the
/// first time the plugin runs; left out are the simulator and its SQLite
/// journal (GRDB), which a host build of the whole CLI would compile for
/// nothing.
@main
struct ValidateTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper",
        abstract: "Validate in-app purchase catalogs (the validate command plugin's tool).",
        discussion: "Exit status: 0 when no error was found, 1 when any was, 2 when the command could not run.",
        subcommands: [Validate.self]
    )

    /// Parses and runs as `storekeeper` does (``CommandEntry``).
    static func main() {
        CommandEntry.main(Self.self)
    }
}
