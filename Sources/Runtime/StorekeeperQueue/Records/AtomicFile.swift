import Foundation
import StorekeeperCore
import StorekeeperPlatform
public import StorekeeperRuntime

/// Whole-file reads, and writes that replace a file atomically and durably
/// (StorekeeperPlatform's `DurableFile`, the one home of that mechanism):
/// a process killed at any point leaves the old file or the new one, never
/// a mix; a crash of the machine after `write` returns keeps the new one.
///
/// Errors name the path and say what is wrong; running out of space or file
/// descriptors is transient, anything else permanent.
///
/// Public so that the StoreKit backends (another module, compiled in another
/// package by the mirror check too) keep their small files the same way: the
/// one home of durable small files (records, StoreKit 2's pending purchases).
public enum AtomicFile {
    /// The largest file read: record files are small, and a bound keeps a
    /// hostile or mistaken file from costing unbounded memory.
    static let maxSize = 64 << 20

    /// The file's bytes, or `nil` when nothing is at `path`.
    public static func contents(of path: String) throws(StepFailure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw failure("read", path, code)
        }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("read", path, errno) }
        // S_IFMT and S_IFREG by value: the C macros are not imported on every platform.
        guard status.st_mode & 0o170000 == 0o100000 else {
            throw .permanent("cannot read \(path): it is not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw failure("read", path, code)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxSize else {
                throw .permanent("cannot read \(path): it is larger than \(maxSize) bytes, too large for a record file")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Replaces the file at `path` with `bytes`, creating its folder if
    /// needed. On failure the old file, if any, is left as it was.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(StepFailure) {
        let folder = DurableFile.folder(of: path)
        let name = DurableFile.lastComponent(of: path)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw .permanent("cannot write \(path): it does not name a file")
        }
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .permanent("cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }
        do throws(DurableFile.Failure) {
            try DurableFile.replace(path, with: bytes)
        } catch {
            throw failure(error.action, error.path, error.code)
        }
    }

    /// Flushes a folder, so that a file created, renamed or linked in it is
    /// there after a power loss.
    static func flushFolder(_ folder: String) throws(StepFailure) {
        do throws(DurableFile.Failure) {
            try DurableFile.flushFolder(folder)
        } catch {
            throw failure(error.action, error.path, error.code)
        }
    }

    private static func failure(_ action: String, _ path: String, _ code: Int32) -> StepFailure {
        let reason = "cannot \(action) \(path): \(String(cString: strerror(code)))"
        switch code {
        case ENOSPC, EDQUOT, EAGAIN, EBUSY, EMFILE, ENFILE, ENOMEM: return .transient(reason)
        default: return .permanent(reason)
        }
    }
}
