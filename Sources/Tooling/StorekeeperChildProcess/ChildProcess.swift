import Foundation

import StorekeeperPlatform

/// Test support shared by the test targets (one home for running child
/// processes). Runs a program with `posix_spawn`, its standard output and error read on
/// threads of their own. Not Foundation's `Process`: on Linux its `run()`
/// lists `/proc/self/fd` with a read past the end of a directory entry
/// (swift-corelibs-foundation PR 5472), which crashed this test process now
/// and then once a thousand descriptors were open across the parallel tests.
public enum ChildProcess {
    /// How a run ended, and what it wrote.
    public struct Outcome: Sendable {
        /// The exit status, or the signal number when `signaled`.
        public var status: Int32
        public var signaled: Bool
        public var timedOut: Bool
        public var standardOutput: Data
        public var standardError: Data
    }

    /// Runs `program` with `arguments` (bytes, so that a name need not be
    /// UTF-8) in `directory`; standard input is /dev/null, standard output
    /// goes to `output` when given (a descriptor the caller owns), else is
    /// collected. Killed after `timeLimit` seconds.
    public static func run(
        _ program: String, _ arguments: [[UInt8]], in directory: String, environment: [String: String],
        output: Int32? = nil, timeLimit: Double
    ) throws -> Outcome {
        let out = output == nil ? try makePipe() : nil
        let err = try makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output ?? out?.write ?? 1, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        // Through the shell for its `cd`, which passes the arguments' bytes on as they are.
        let shell = ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, directory, program].map { Array($0.utf8) }
        let vector = (shell + arguments).map(Self.cString) + [nil]
        defer { for pointer in vector { pointer?.deallocate() } }
        let variables = environment.map { Self.cString(Array("\($0.key)=\($0.value)".utf8)) } + [nil]
        defer { for pointer in variables { pointer?.deallocate() } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, vector, variables)
        close(err.write)
        if let out { close(out.write) }
        guard spawned == 0 else {
            close(err.read)
            if let out { close(out.read) }
            throw SpawnFailure(message: "cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        let errors = Reader(err.read)
        let standardOutput = out.map { Reader($0.read) }
        var status: Int32 = 0
        var timedOut = false
        let deadline = Date().addingTimeInterval(timeLimit)
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno != EINTR) { break }
            if Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            usleep(5_000)
        }
        // WIFSIGNALED and WEXITSTATUS, by value: the C macros are not imported.
        let signal = status & 0x7F
        return Outcome(
            status: signal != 0 ? signal : (status >> 8) & 0xFF, signaled: signal != 0, timedOut: timedOut,
            standardOutput: standardOutput?.finish() ?? Data(), standardError: errors.finish())
    }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// A pipe whose ends are not inherited by children other than through
    /// the spawn's own `dup2` (which clears the flag on the copy).
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnFailure(message: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }

    /// Reads a descriptor to its end on a thread of its own, so that a child
    /// writing more than a pipe holds never blocks; closes it when done.
    private final class Reader: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ descriptor: Int32) {
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count > 0 { data.append(contentsOf: buffer[0..<count]); continue }
                    if count < 0 && errno == EINTR { continue }
                    break
                }
                close(descriptor)
                done.signal()
            }
        }

        func finish() -> Data {
            // The child has ended, so the pipe reaches its end soon; bounded
            // anyway, in case a grandchild kept it open.
            _ = done.wait(timeout: .now() + 10)
            return data
        }
    }
}
