#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file whole or not at all: to a temporary file beside it, then
/// renamed over it, so a reader never sees half a policy and a failed write
/// leaves the old one in place.
enum OutputFile {
    static func save(_ text: String, to path: String) throws(CommandFailure) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CommandFailure(message: "cannot write \(path): \(reason())") }
        var failed: String?
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = reason()
                    return
                }
                offset += written
            }
        }
        if failed == nil, fsync(descriptor) != 0 { failed = reason() }
        if close(descriptor) != 0, failed == nil { failed = reason() }
        if failed == nil, rename(temporary, path) != 0 { failed = reason() }
        if let failed {
            unlink(temporary)
            throw CommandFailure(message: "cannot write \(path): \(failed)")
        }
    }

    /// The first of `inputs` that is the same file as `path` (same device
    /// and inode, whatever the spelling or links), if `path` exists.
    static func sameFile(_ path: String, asAnyOf inputs: [String]) -> String? {
        var target = stat()
        guard stat(path, &target) == 0 else { return nil }
        for input in inputs {
            var other = stat()
            if stat(input, &other) == 0, other.st_dev == target.st_dev, other.st_ino == target.st_ino { return input }
        }
        return nil
    }

    /// Why a file cannot be written at `path` because of its folder (it does
    /// not exist, or is not a folder), so a command can say so before it
    /// does its work; nil when the folder is there.
    static func folderProblem(for path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var info = stat()
        guard stat(folder.isEmpty ? "/" : folder, &info) == 0 else {
            return "the folder \(folder) does not exist; create it, or write elsewhere"
        }
        return (info.st_mode & S_IFMT) == S_IFDIR ? nil : "\(folder) is not a folder"
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
