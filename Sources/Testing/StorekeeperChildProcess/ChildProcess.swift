import StorekeeperCore
import StorekeeperPlatform

/// A program to run in a child process, and where its output goes: the one way Storekeeper's tools,
/// checks and tests start another program.
///
/// `posix_spawn`, not Foundation's `Process`: on Linux, `Process.run()` lists `/proc/self/fd` with a
/// read past the end of a directory entry (swift-corelibs-foundation PR 5472), which crashed a process
/// now and then once many descriptors were open.
///
/// The child's standard input is always `/dev/null`. ``start()`` returns a ``RunningChild`` to poll,
/// signal and wait for; ``run(killAfter:timeout:)`` starts the child and waits for it in one call:
///
/// ```swift
/// let head = try ChildProcess("git", ["rev-parse", "HEAD"], standardOutput: .capture(limit: 4096))
///     .run(timeout: .seconds(60))
/// guard head.termination == .exited(0) else { ... }
/// ```
public struct ChildProcess: Sendable, Hashable {
    /// The program: a path (a relative one is taken from ``directory``), or a name without a slash,
    /// looked up on this process's `PATH`.
    public var executable: String
    /// The arguments after the program's name, as bytes, so that one need not be UTF-8.
    public var arguments: [[UInt8]]
    /// The folder the child starts in; `nil` for this process's current directory.
    public var directory: String?
    /// The child's whole environment; `nil` to inherit this process's.
    public var environment: [String: String]?
    /// Where the child's standard output goes.
    public var standardOutput: ChildOutput
    /// Where the child's standard error goes.
    public var standardError: ChildOutput

    /// Describes a run of `executable` with `arguments`; by default its output and errors are discarded.
    public init(
        _ executable: String, _ arguments: [String], directory: String? = nil, environment: [String: String]? = nil,
        standardOutput: ChildOutput = .discard, standardError: ChildOutput = .discard
    ) {
        self.init(
            executable, argumentBytes: arguments.map { Array($0.utf8) }, directory: directory, environment: environment,
            standardOutput: standardOutput, standardError: standardError)
    }

    /// Describes a run of `executable` with arguments given as bytes (a file name need not be UTF-8).
    public init(
        _ executable: String, argumentBytes: [[UInt8]], directory: String? = nil, environment: [String: String]? = nil,
        standardOutput: ChildOutput = .discard, standardError: ChildOutput = .discard
    ) {
        self.executable = executable
        self.arguments = argumentBytes
        self.directory = directory
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Starts the child and waits for it; see ``RunningChild/wait(killAfter:timeout:)``.
    ///
    /// - Throws: ``ChildProcessError`` when the child cannot be started or waited for. A child that
    ///   starts and then fails is not an error: see ``ChildOutcome/termination``.
    public func run(killAfter: Duration? = nil, timeout: Duration? = nil) throws(ChildProcessError) -> ChildOutcome {
        try start().wait(killAfter: killAfter, timeout: timeout)
    }

    /// Starts the child and returns at once, with the handle that waits for it.
    ///
    /// - Throws: ``ChildProcessError`` when ``directory`` is not a folder, an output file cannot be
    ///   opened, or the program cannot be started (``ChildProcessError/isMissingExecutable`` when
    ///   there is no such program).
    public func start() throws(ChildProcessError) -> RunningChild {
        let argumentVector = [Array(executable.utf8)] + arguments
        let variables = environment.map { $0.sorted { $0.key < $1.key }.map { Array("\($0.key)=\($0.value)".utf8) } }
        // exec takes NUL-terminated strings: a NUL inside one would cut it short without a word.
        guard !(argumentVector + (variables ?? [])).contains(where: { $0.contains(0) }) else {
            throw ChildProcessError(executable: executable, step: .passArguments, code: EINVAL)
        }
        let argv = CStrings(argumentVector)
        let envp = variables.map(CStrings.init)
        var processID = pid_t()
        var startedAt: UInt64 = 0
        let (actions, spawned) = try Self.spawnLock.withLock { _ throws(ChildProcessError) in
            let actions = try SpawnFileActions(for: self)
            let attributes = SpawnAttributes()
            startedAt = MonotonicClock.nanoseconds()
            let spawned = withExtendedLifetime((argv, envp)) {
                posix_spawnp(
                    &processID, executable, &actions.actions, &attributes.attributes, argv.vector,
                    envp.map { UnsafePointer($0.vector) } ?? Self.inheritedEnvironment)
            }
            return (actions, spawned)
        }
        // The child has its copies; the parent's would keep the pipes from ever reaching their end.
        actions.closeChildEnds()
        guard spawned == 0 else { throw ChildProcessError(executable: executable, step: .start, code: spawned) }
        return RunningChild(
            processID: processID, executable: executable, startedAt: startedAt,
            standardOutput: actions.standardOutputCapture, standardError: actions.standardErrorCapture)
    }

    /// Held while a spawn's pipes are made and while a child is spawned: a pipe is made without
    /// `FD_CLOEXEC` (no `pipe2` in Swift's C modules) and gets it a moment later, and a child spawned
    /// by another thread in that moment would keep the pipe open, and its reader waiting.
    static let spawnLock = Locked(())

    /// This process's environment, which a child inherits when it is given none.
    private static var inheritedEnvironment: UnsafePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        UnsafePointer(_NSGetEnviron().pointee)
        #else
        UnsafePointer(environ)
        #endif
    }
}
