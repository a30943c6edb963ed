import Foundation

import StorekeeperChildProcess

/// One launch of the drill's own executable in a child process, its standard output and error in
/// files, which the supervisor may kill with SIGKILL after a delay, as the system kills an app.
///
/// A ``ChildProcess``: its handle alone reaps the child, so a kill sent just as the child exits
/// reaches that child and never a process that reused its id.
struct ChildLaunch {
    /// The program: a path, not looked up in `PATH`.
    let executable: String
    /// The arguments after the program's name.
    let arguments: [String]
    /// The files that receive the child's standard output and error, created or truncated.
    let standardOutput: String
    let standardError: String

    /// Starts the child, kills it after `killAfterMilliseconds` if given and it is still running,
    /// and waits for it; a child still running after `timeoutSeconds` is killed and counted as
    /// timed out (a hang).
    func run(killAfterMilliseconds: Int?, timeoutSeconds: Int) throws(DrillError) -> ChildOutcome {
        try Self.wait(for: start(), killAfterMilliseconds: killAfterMilliseconds, timeoutSeconds: timeoutSeconds)
    }

    /// Starts the child and returns at once.
    func start() throws(DrillError) -> RunningChild {
        do {
            return try ChildProcess(executable, arguments, standardOutput: .file(standardOutput), standardError: .file(standardError))
                .start()
        } catch {
            throw .message(error.description)
        }
    }

    /// Waits for a child of ``start()``, killing it as ``run(killAfterMilliseconds:timeoutSeconds:)`` does.
    static func wait(for child: RunningChild, killAfterMilliseconds: Int?, timeoutSeconds: Int) throws(DrillError) -> ChildOutcome {
        do {
            return try child.wait(killAfter: killAfterMilliseconds.map { .milliseconds($0) }, timeout: .seconds(timeoutSeconds))
        } catch {
            throw .message(error.description)
        }
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
