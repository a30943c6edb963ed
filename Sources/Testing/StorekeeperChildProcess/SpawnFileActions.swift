import StorekeeperPlatform

/// What a spawn does to the child's descriptors before the program starts (standard input from
/// `/dev/null`, the folder it starts in, its output where ``ChildOutput`` says), and the descriptors
/// the parent opened for it: the child's ends, closed in the parent once the child has its copies,
/// and the captures' read ends, handed to the ``RunningChild``.
///
/// Files and pipes are opened in the parent rather than by the spawn, so that a file that cannot be
/// opened is reported as such, never mistaken for a missing program.
final class SpawnFileActions {
    #if canImport(Darwin)
    typealias Actions = posix_spawn_file_actions_t?
    #else
    typealias Actions = posix_spawn_file_actions_t
    #endif

    /// The actions, for `posix_spawn`.
    var actions = Actions()
    /// What reads the child's standard output, when it is captured.
    private(set) var standardOutputCapture: OutputCapture?
    /// What reads the child's standard error, when it is captured.
    private(set) var standardErrorCapture: OutputCapture?
    /// Descriptors whose copies the child gets.
    private var childEnds: [Int32] = []

    init(for process: ChildProcess) throws(ChildProcessError) {
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let directory = process.directory { try enter(directory, executable: process.executable) }
        standardOutputCapture = try connect(process.standardOutput, to: 1, executable: process.executable)
        standardErrorCapture = try connect(process.standardError, to: 2, executable: process.executable)
    }

    deinit {
        closeChildEnds()
        posix_spawn_file_actions_destroy(&actions)
    }

    /// Closes the parent's copies of the child's descriptors.
    func closeChildEnds() {
        for descriptor in childEnds { _ = close(descriptor) }
        childEnds = []
    }

    /// Makes the child start in `directory`, which must be a folder: checked here, so that a missing
    /// folder is not reported as a missing program.
    private func enter(_ directory: String, executable: String) throws(ChildProcessError) {
        var status = stat()
        guard stat(directory, &status) == 0 else { throw ChildProcessError(executable: executable, step: .enterDirectory(directory), code: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw ChildProcessError(executable: executable, step: .enterDirectory(directory), code: ENOTDIR)
        }
        guard let addChangeDirectory = Self.addChangeDirectory else {
            throw ChildProcessError(executable: executable, step: .enterDirectory(directory), code: ENOSYS)
        }
        _ = addChangeDirectory(&actions, directory)
    }

    /// Points the child's descriptor `target` where `output` says; the capture that reads it, if any.
    private func connect(_ output: ChildOutput, to target: Int32, executable: String) throws(ChildProcessError) -> OutputCapture? {
        switch output {
        case .discard:
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            return nil
        case .file(let path):
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw ChildProcessError(executable: executable, step: .openOutput(path), code: errno) }
            childEnds.append(descriptor)
            posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            return nil
        case .descriptor(let descriptor):
            posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            return nil
        case .capture(let limit):
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw ChildProcessError(executable: executable, step: .makePipe, code: errno) }
            // Neither end may leak into another child: the spawn's dup2 gives this one its copy.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            childEnds.append(ends[1])
            posix_spawn_file_actions_adddup2(&actions, ends[1], target)
            return OutputCapture(descriptor: ends[0], limit: limit)
        }
    }

    private typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<Actions>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29, musl 1.1.24, macOS 10.15), looked up by
    /// name: glibc declares it only under `_GNU_SOURCE`, which Swift's Glibc module does not define.
    private static let addChangeDirectory: AddChangeDirectory? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChangeDirectory.self)
    }()
}
