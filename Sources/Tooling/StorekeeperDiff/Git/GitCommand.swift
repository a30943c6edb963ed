import StorekeeperChildProcess

/// Runs `git` (found on `PATH`) in the current directory and captures what it prints: no shell, so
/// no argument is ever interpreted; both streams are read together, so neither can fill and stall git.
enum GitCommand {
    /// The most of git's standard error read: its complaint is in the first line, and a git that
    /// writes more is stopped like one whose output is too long.
    static let errorLimit = 65_536

    /// Runs `git ARGUMENTS`, keeping at most `outputLimit` bytes of its output: past it, git is
    /// stopped rather than read to the end of a file the caller refuses
    /// (``ChildOutcome/standardOutputExceededLimit``).
    static func run(_ arguments: [String], outputLimit: Int) throws(ChildProcessError) -> ChildOutcome {
        try ChildProcess(
            "git", arguments, standardOutput: .capture(limit: outputLimit), standardError: .capture(limit: errorLimit)
        ).run()
    }
}
