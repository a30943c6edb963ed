import StorekeeperCore
import StorekeeperPlatform

/// One run of a program in a child process, measured from outside: wall time and peak memory.
///
/// The child is started with `posix_spawn`, its standard input, output and error on `/dev/null` (or its
/// output in a file, when asked), and reaped with `wait4`, which hands back its resource usage. The clock starts just before the spawn
/// and stops when `wait4` returns, so the time covers everything the program costs its user: loading,
/// start-up, work and exit.
struct ChildProcess: Sendable {
    /// How a child process ended.
    enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal with this number killed it.
        case signalled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "was killed by signal \(signal)"
            }
        }
    }

    /// What one run cost.
    struct Measurement: Sendable {
        /// Wall time from spawn to reaping, in milliseconds.
        let milliseconds: Double
        /// The child's peak resident set size (`ru_maxrss`), in KiB.
        let peakResidentKiB: Int
        /// How the child ended.
        let termination: Termination
    }

    /// The program to run: a path, not looked up in `PATH`.
    let executable: String
    /// The arguments after the program's name.
    let arguments: [String]

    /// Creates a description of a run of `executable` with `arguments`.
    init(_ executable: String, _ arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// The command as one would type it, for messages and reports.
    var commandLine: String {
        ([executable] + arguments).map(ShellQuoting.quote).joined(separator: " ")
    }

    /// Runs the program once, waits for it to end and measures it.
    ///
    /// - Parameter standardOutput: The file that receives the program's standard output, created or
    ///   truncated; `/dev/null` unless the output is to be read back.
    /// - Throws: ``BenchmarkError`` when the program cannot be started or waited for. A program that
    ///   starts and then fails is not an error here: see ``Measurement/termination``.
    func run(standardOutput: String = "/dev/null") throws -> Measurement {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid = pid_t()
        let start = MonotonicClock.nanoseconds()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, Self.environment)
        guard spawned == 0 else { throw BenchmarkError.system("posix_spawn", executable, code: spawned) }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError.system("wait4", executable, code: errno) }
        }
        let end = MonotonicClock.nanoseconds()

        #if canImport(Darwin)
        let peakKiB = Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #else
        let peakKiB = Int(usage.ru_maxrss)  // KiB on Linux
        #endif
        return Measurement(
            milliseconds: Double(end - start) / 1_000_000,
            peakResidentKiB: peakKiB,
            termination: Self.termination(fromWaitStatus: status))
    }

    /// This process's environment, which the child inherits.
    private static var environment: UnsafePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        UnsafePointer(_NSGetEnviron().pointee)
        #else
        UnsafePointer(environ)
        #endif
    }

    /// Decodes a status from `wait4`; the `WIFEXITED` family are C macros that Swift does not import.
    private static func termination(fromWaitStatus status: Int32) -> Termination {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}
