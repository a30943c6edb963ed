import ArgumentParser

/// `storekeeper-server`: serves the contract's routes (`serve`, the default) or checks signed data
/// from the command line (`verify`).
///
/// Exit statuses as the `storekeeper` CLI's: 0 when it worked, 1 when `verify` refused the payload,
/// 2 when the command could not run (a usage error, a configuration that cannot work), so that a
/// script can tell "the payload is bad" from "the command is wrong".
@main
struct StorekeeperServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper-server",
        abstract: "The server half of Storekeeper: verifies App Store signed data and keeps a ledger per user.",
        discussion: "Exit status: 0 when it worked, 1 when verify refused the payload, 2 when the command could not run.",
        version: "0.1.0",
        subcommands: [Serve.self, Verify.self, Token.self],
        defaultSubcommand: Serve.self
    )

    /// Parses and runs, mapping every failure to the documented exit status: usage errors exit 2
    /// (not ArgumentParser's 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Self.exit(withError: exit)
        } catch let failure as UsageError {
            StandardStreams.writeError("storekeeper-server: error: \(failure.message)\n")
            Self.exit(withError: ExitCode(2))
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version.
                let text = fullMessage(for: error)
                if !text.isEmpty { StandardStreams.writeOutput(text + "\n") }
                Self.exit(withError: ExitCode.success)
            }
            StandardStreams.writeError(fullMessage(for: error) + "\n")
            Self.exit(withError: ExitCode(2))
        }
    }
}
