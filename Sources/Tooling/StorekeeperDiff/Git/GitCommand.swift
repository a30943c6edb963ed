import StorekeeperCore
import StorekeeperPlatform

/// Runs `git` (found on `PATH`) in the current directory and captures what it
/// prints: `posix_spawnp` and `poll`, no shell, so no argument is ever
/// interpreted, and both pipes are drained together so neither can fill and
/// stall the child.
enum GitCommand {
    /// What one run of git produced.
    struct Output: Sendable {
        /// The exit status (128 + the signal's number when a signal ended it).
        var status: Int32
        /// Standard output, at most the limit asked for.
        var standardOutput: [UInt8]
        /// Standard error, as text (at most 64 KiB).
        var standardError: String
        /// Whether standard output went past the limit (git was then stopped).
        var overLimit: Bool
    }

    /// Why git could not be run at all.
    enum Failure: Error, Sendable, Equatable {
        /// No `git` on `PATH`.
        case notInstalled
        /// Starting or waiting for it failed, with the system's reason.
        case system(String)
    }

    /// Runs `git ARGUMENTS`, keeping at most `outputLimit` bytes of its output.
    static func run(_ arguments: [String], outputLimit: Int) throws(Failure) -> Output {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw .system(reason(errno)) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw .system(reason(errno))
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for descriptor in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }

        let argv: [UnsafeMutablePointer<CChar>?] = (["git"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "git", &actions, nil, argv, environment)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw spawned == ENOENT ? .notInstalled : .system(reason(spawned))
        }

        var output: [UInt8] = [], errors: [UInt8] = []
        var overLimit = false
        var open: [Int32] = [outPipe[0], errPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in polled where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                if entry.fd == outPipe[0] {
                    output.append(contentsOf: buffer[..<count])
                    if output.count > outputLimit {
                        // Past the limit: stop git rather than read a file the caller refuses.
                        overLimit = true
                        output.removeSubrange(outputLimit...)
                        kill(pid, SIGTERM)
                        close(entry.fd)
                        open.removeAll { $0 == entry.fd }
                    }
                } else if errors.count < 65_536 {
                    errors.append(contentsOf: buffer[..<count])
                }
            }
        }
        for descriptor in open { close(descriptor) }

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .system(reason(errno)) }
        }
        let signal = status & 0x7F
        return Output(
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
            standardOutput: output,
            standardError: String(decoding: errors, as: UTF8.self),
            overLimit: overLimit)
    }

    /// This process's environment, which git inherits (its `GIT_*` settings included).
    private static var environment: UnsafePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        UnsafePointer(_NSGetEnviron().pointee)
        #else
        UnsafePointer(environ)
        #endif
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
