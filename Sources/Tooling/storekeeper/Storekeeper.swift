import ArgumentParser

/// The `storekeeper` command: validates in-app purchase catalogs.
@main
struct Storekeeper: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper",
        abstract: "Validate in-app purchase catalogs and run their policy.",
        discussion: "Exit status: 0 when no error was found, 1 when any was, 2 when the command could not run.",
        version: "0.1.0",
        subcommands: [Validate.self, Compile.self, Explain.self, Simulate.self, Diff.self, Schema.self, Import.self, Export.self, Rules.self]
    )

    /// Parses and runs, mapping every failure to the documented exit status:
    /// usage errors exit 2 (not ArgumentParser's 64), so scripts can tell
    /// "the catalog is wrong" (1) from "the command could not run" (2).
    static func main() {
        AllocatorTuning.apply()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Self.exit(withError: exit)
        } catch let failure as CommandFailure {
            StandardError.write("storekeeper: error: \(failure.message)\n")
            Self.exit(withError: ExitCode(2))
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // `--help` and `--version`: written like every other output,
                // so that a failed write is exit status 2 here too.
                let text = fullMessage(for: error)
                if !text.isEmpty { StandardOutput.write(text + "\n", what: "the help or version") }
                Self.exit(withError: ExitCode.success)
            }
            StandardError.write(fullMessage(for: error) + "\n")
            Self.exit(withError: ExitCode(2))
        }
    }
}
