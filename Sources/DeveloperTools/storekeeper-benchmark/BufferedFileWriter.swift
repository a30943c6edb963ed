import StorekeeperCore
import StorekeeperPlatform

/// A text output stream into a new file, through a buffer, so that a generator can `print(…, to:)` into it.
///
/// `TextOutputStream.write(_:)` cannot throw, so the first failure is kept and thrown by ``close()``;
/// nothing is written after it.
final class BufferedFileWriter: TextOutputStream {
    /// How many bytes are gathered before they go to the file.
    private static let capacity = 1 << 16

    private let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: BenchmarkError?

    /// Creates (or truncates) the file at `path` for writing.
    ///
    /// - Throws: ``BenchmarkError`` when the file cannot be created.
    init(creating path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BenchmarkError.system("open", path, code: errno) }
        buffer.reserveCapacity(Self.capacity)
    }

    deinit {
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
    }

    /// Appends `string`, encoded as UTF-8.
    func write(_ string: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= Self.capacity { flush() }
    }

    /// Writes what is buffered and closes the file.
    ///
    /// - Throws: ``BenchmarkError`` for the first failure since the file was created.
    func close() throws {
        flush()
        if descriptor >= 0 {
            if closeDescriptor(descriptor) != 0 && failure == nil {
                failure = BenchmarkError.system("close", path, code: errno)
            }
            descriptor = -1
        }
        if let failure { throw failure }
    }

    private func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, descriptor >= 0 else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { writeDescriptor(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                failure = BenchmarkError.system("write", path, code: errno)
                return
            }
            offset += written
        }
    }
}

/// The C library's `close`, under a name that ``BufferedFileWriter/close()`` does not shadow.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

/// The C library's `write`, under a name that ``BufferedFileWriter/write(_:)`` does not shadow.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
