import StorekeeperCore
import StorekeeperPlatform

/// Writing bytes to a file descriptor until all of them are written: one
/// `write(2)` may take only part of a buffer, or be interrupted by a signal.
/// The one home of this loop for the output files and the standard streams.
public enum DescriptorWriting {
    /// Writes all of `text`'s UTF-8 to `descriptor`, retrying after `EINTR`
    /// and partial writes.
    ///
    /// - Returns: `nil` once everything is written, or the `errno` of the
    ///   write that failed.
    @discardableResult
    public static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = writeSome(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}

/// `write(2)`, which `DescriptorWriting`'s callers would otherwise reach by a name they shadow.
private func writeSome(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
