import StorekeeperPlatform

/// One of a child's output streams, read from a pipe into memory up to a limit.
final class OutputCapture {
    /// The most bytes kept.
    let limit: Int
    /// The pipe's read end; -1 once closed.
    private(set) var descriptor: Int32
    /// What was read, at most ``limit`` bytes.
    private(set) var bytes: [UInt8] = []
    /// Whether the child wrote more than ``limit`` bytes.
    private(set) var exceededLimit = false
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = max(0, limit)
    }

    /// Whether the pipe is still read: it has not reached its end nor gone past the limit.
    var isOpen: Bool { descriptor >= 0 }

    /// Reads once from the pipe, which `poll` said is ready; closes it at its end, on an error, or
    /// once past the limit (the caller then stops the child).
    func readReady() {
        guard isOpen else { return }
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else { return close() }
        let room = limit - bytes.count
        bytes.append(contentsOf: buffer[..<min(count, room)])
        if count > room {
            exceededLimit = true
            close()
        }
    }

    /// Stops reading; what was read stays.
    func close() {
        guard isOpen else { return }
        _ = StorekeeperPlatform.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
