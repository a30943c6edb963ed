package import ArgumentParser

/// How a Storekeeper command-line tool starts and ends, whichever commands it
/// has: the allocator tuned, the arguments parsed, and every failure mapped to
/// the documented exit status. Usage errors exit 2 (not ArgumentParser's 64),
/// so scripts can tell "the catalog is wrong" (1) from "the command could not
/// run" (2).
package enum CommandEntry {
    /// Parses the process's arguments as `Root`'s and runs the command they name.
    package static func main<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        AllocatorTuning.apply()
        do {
            var command = try Root.parseAsRoot()
            try command.run()
            Root.exit()
        } catch let exit as ExitCode {
            Root.exit(withError: exit)
        } catch let failure as CommandFailure {
            StandardError.write("storekeeper: error: \(failure.message)\n")
            Root.exit(withError: ExitCode(2))
        } catch {
            let code = Root.exitCode(for: error)
            if code == .success {
                // `--help` and `--version`: written like every other output,
                // so that a failed write is exit status 2 here too.
                let text = Root.fullMessage(for: error)
                if !text.isEmpty { StandardOutput.write(text + "\n", what: "the help or version") }
                Root.exit(withError: ExitCode.success)
            }
            StandardError.write(Root.fullMessage(for: error) + "\n")
            Root.exit(withError: ExitCode(2))
        }
    }
}
