import Foundation

import StorekeeperCore
import StorekeeperPlatform

/// The store's durable record of finished transactions: an append-only file,
/// one transaction id per line, each line written with one `write` and
/// flushed with `fsync` before ``append(_:)`` returns.
///
/// A process killed in the middle of a line leaves a last line without its
/// newline: that line is not a finish (the store never acknowledged it), so
/// reading ignores it, and opening the log cuts it off, so that the next
/// line does not run on from it.
final class FinishedLog {
    /// The file's path.
    let path: String
    /// The ids, in the order they were finished (a finish written twice appears twice).
    private(set) var ids: [String]
    private let descriptor: Int32

    /// Opens the log at `path`, creating it if missing and cutting off a torn last line.
    init(path: String) throws(DrillError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DrillError.system("open", path, code: errno) }
        let ids: [String]
        do throws(DrillError) {
            let bytes = try Self.readAll(fd, path: path)
            let complete: Int
            (complete, ids) = Self.parse(bytes)
            if complete < bytes.count {
                guard ftruncate(fd, off_t(complete)) == 0, fsync(fd) == 0 else {
                    throw DrillError.system("cut the torn last line of", path, code: errno)
                }
            }
            guard lseek(fd, 0, SEEK_END) >= 0 else { throw DrillError.system("seek in", path, code: errno) }
        } catch {
            close(fd)
            throw error
        }
        // Set last, so that a failure above closes the descriptor once, here, and not again in deinit.
        self.path = path
        self.ids = ids
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// The length of the complete lines of `bytes`, and their ids; a last line without its newline is not counted.
    static func parse(_ bytes: [UInt8]) -> (complete: Int, ids: [String]) {
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return (0, []) }
        let ids = bytes[..<lastNewline].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        return (lastNewline + 1, ids)
    }

    /// Writes `id` as a line and flushes it to the disk.
    func append(_ id: String) throws(DrillError) {
        try writeAndFlush(Array("\(id)\n".utf8))
        ids.append(id)
    }

    /// Writes the first half of `id`'s line, without its newline, and flushes
    /// it: what a process killed in the middle of ``append(_:)`` leaves.
    func appendTorn(_ id: String) throws(DrillError) {
        let line = Array("\(id)\n".utf8)
        try writeAndFlush(Array(line[..<max(1, line.count / 2)]))
    }

    private func writeAndFlush(_ bytes: [UInt8]) throws(DrillError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw DrillError.system("write", path, code: errno) }
            offset += written
        }
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw DrillError.system("fsync", path, code: errno) }
        }
    }

    private static func readAll(_ fd: Int32, path: String) throws(DrillError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw DrillError.system("read", path, code: errno) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
