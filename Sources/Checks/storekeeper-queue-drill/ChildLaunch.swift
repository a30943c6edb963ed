import Foundation

import StorekeeperCore
import StorekeeperPlatform

/// One launch of the drill's `run` in a child process, which the supervisor
/// may kill with SIGKILL after a delay, as the system kills an app.
///
/// `posix_spawn` and `waitpid` rather than Foundation's `Process`: the child
/// stays a zombie until it is reaped here, so a kill sent just as it exits
/// reaches that child and never a process that reused its id.
struct ChildLaunch {
    /// How the child ended.
    enum Termination: Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// This signal ended it.
        case signalled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "was killed by signal \(signal)"
            }
        }
    }

    /// What happened to one launch.
    struct Outcome {
        var termination: Termination
        /// Whether the supervisor's timer sent SIGKILL (the child may have ended just before).
        var timerFired: Bool
        /// Whether the launch ran past its time limit and was killed for it.
        var timedOut: Bool
        /// Wall time from the spawn to the reaping, in milliseconds.
        var milliseconds: Int

        /// Whether the launch died of SIGKILL.
        var killed: Bool { termination == .signalled(SIGKILL) && !timedOut }
    }

    /// The program: a path, not looked up in `PATH`.
    let executable: String
    /// The arguments after the program's name.
    let arguments: [String]
    /// The files that receive the child's standard output and error, created or truncated.
    let standardOutput: String
    let standardError: String

    /// Starts the child, kills it after `killAfterMilliseconds` if given and
    /// it is still running, and waits for it; a child still running after
    /// `timeoutSeconds` is killed and counted as timed out (a hang).
    func run(killAfterMilliseconds: Int?, timeoutSeconds: Int) throws(DrillError) -> Outcome {
        try start().wait(killAfterMilliseconds: killAfterMilliseconds, timeoutSeconds: timeoutSeconds)
    }

    /// Starts the child and returns at once.
    func start() throws(DrillError) -> Running {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid = pid_t()
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, Self.environment)
        guard spawned == 0 else { throw DrillError.system("start", executable, code: spawned) }
        return Running(pid: pid, executable: executable, start: start)
    }

    /// A child started and not yet waited for.
    final class Running {
        let pid: pid_t
        private let executable: String
        private let start: UInt64
        /// Its wait status, once reaped.
        private var status: Int32?

        fileprivate init(pid: pid_t, executable: String, start: UInt64) {
            self.pid = pid
            self.executable = executable
            self.start = start
        }

        /// Whether it has ended (reaping it if so), without waiting.
        func hasEnded() throws(DrillError) -> Bool {
            if status != nil { return true }
            var waited: Int32 = 0
            while true {
                let reaped = waitpid(pid, &waited, WNOHANG)
                if reaped == pid {
                    status = waited
                    return true
                }
                if reaped == 0 { return false }
                guard errno == EINTR else { throw DrillError.system("wait for", executable, code: errno) }
            }
        }

        /// Kills it after `killAfterMilliseconds` (from its start) if given
        /// and it is still running, and waits for it; one still running after
        /// `timeoutSeconds` is killed and counted as timed out (a hang).
        func wait(killAfterMilliseconds: Int?, timeoutSeconds: Int) throws(DrillError) -> Outcome {
            let killAt = killAfterMilliseconds.map { start + UInt64($0) * 1_000_000 }
            let giveUpAt = start + UInt64(timeoutSeconds) * 1_000_000_000
            var timerFired = false
            var timedOut = false
            while try !hasEnded() {
                let now = DispatchTime.now().uptimeNanoseconds
                if let killAt, !timerFired, now >= killAt {
                    timerFired = true
                    kill(pid, SIGKILL)
                } else if !timedOut, now >= giveUpAt {
                    timedOut = true
                    kill(pid, SIGKILL)
                }
                // Polling keeps the timer within half a millisecond without a second thread, and costs little otherwise.
                usleep(killAt != nil && !timerFired ? 500 : 2_000)
            }
            let milliseconds = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            return Outcome(termination: ChildLaunch.termination(fromWaitStatus: status ?? 0), timerFired: timerFired,
                           timedOut: timedOut, milliseconds: milliseconds)
        }
    }

    /// This process's environment, which the child inherits.
    private static var environment: UnsafePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        UnsafePointer(_NSGetEnviron().pointee)
        #else
        UnsafePointer(environ)
        #endif
    }

    /// Decodes a status from `waitpid`; the `WIFEXITED` family are C macros that Swift does not import.
    fileprivate static func termination(fromWaitStatus status: Int32) -> Termination {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// The path of this program, to launch it again as a child.
    static func ownExecutable() -> String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        if let path = Bundle.main.executablePath { return path }
        let first = CommandLine.arguments.first ?? "storekeeper-queue-drill"
        return first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
    }
}
