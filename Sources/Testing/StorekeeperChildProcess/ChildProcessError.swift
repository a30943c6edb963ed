import StorekeeperPlatform

/// Why a child process could not be started or waited for. A child that starts and then fails is
/// not one: its ``ChildOutcome/termination`` says how it ended.
public struct ChildProcessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done when the system refused.
    public enum Step: Sendable, Hashable {
        /// Checking the folder the child was to start in (at this path).
        case enterDirectory(String)
        /// Opening the file (at this path) that was to receive the child's output.
        case openOutput(String)
        /// Making the pipe that was to capture the child's output.
        case makePipe
        /// Passing the arguments and the environment: one of them holds a NUL byte, which ends a
        /// string for `exec` (``code`` is `EINVAL`).
        case passArguments
        /// Spawning the child: the program is missing or cannot be run.
        case start
        /// Waiting for the child.
        case wait
    }

    /// The program, as the ``ChildProcess`` named it.
    public var executable: String
    /// What failed.
    public var step: Step
    /// The system's error number (`errno`, or what `posix_spawn` returned).
    public var code: Int32

    /// Creates an error for `step` of running `executable`, with the system's error number.
    init(executable: String, step: Step, code: Int32) {
        self.executable = executable
        self.step = step
        self.code = code
    }

    /// Whether the program does not exist (at its path, or on `PATH` for a bare name).
    public var isMissingExecutable: Bool { step == .start && code == ENOENT }

    /// The system's wording of ``code``: "No such file or directory".
    public var reason: String { String(cString: strerror(code)) }

    /// A sentence for the user, naming the program and, where one is involved, the path.
    public var description: String {
        switch step {
        case .start where isMissingExecutable && !executable.contains("/"):
            "cannot start \(executable): no program of that name on PATH"
        case .passArguments:
            "cannot start \(executable): an argument or an environment variable holds a NUL byte, which no program can be given"
        case .start: "cannot start \(executable): \(reason)"
        case .wait: "cannot wait for \(executable): \(reason)"
        case .makePipe: "cannot make a pipe for the output of \(executable): \(reason)"
        case .enterDirectory(let directory): "cannot start \(executable) in \(directory): \(reason)"
        case .openOutput(let path): "cannot open \(path) for the output of \(executable): \(reason)"
        }
    }
}
