import StorekeeperChildProcess

/// A child process as the benchmark runs it: measured from outside, its command line in messages.
///
/// Standard input, output and error are on `/dev/null` unless said otherwise (the warm-up keeps a
/// validation's report in a file), and the child is reaped with `wait4`, which hands back its resource
/// usage. The clock starts just before the spawn and stops when `wait4` returns, so the time covers
/// everything the program costs its user: loading, start-up, work and exit.
extension ChildProcess {
    /// The command as one would type it, for messages and reports.
    var commandLine: String {
        ([executable] + arguments.map { String(decoding: $0, as: UTF8.self) }).map(ShellQuoting.quote).joined(separator: " ")
    }

    /// Runs the program once, waits for it to end and measures it.
    ///
    /// - Throws: ``BenchmarkError`` when the program cannot be started or waited for. A program that
    ///   starts and then fails is not an error here: see ``ChildOutcome/termination``.
    func measure() throws -> ChildOutcome {
        do {
            return try run()
        } catch {
            throw BenchmarkError(error.description)
        }
    }
}

extension ChildOutcome {
    /// Wall time from spawn to reaping, in milliseconds.
    var milliseconds: Double { elapsed / .milliseconds(1) }
}
