#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StorekeeperCatalog

/// Writes the generated Swift only when it differs from what the file
/// holds, so that an unchanged catalog leaves the file (and its modification
/// time) alone and the build does not compile it again; and whole or not at
/// all, through a temporary file renamed over it.
///
/// (The CLI's `OutputFile` writes the same way but always; it lives in the
/// `storekeeper` executable, which this tool does not link.)
enum GeneratedFile {
    /// Why the file could not be written.
    struct Failure: Error {
        var message: String
    }

    /// Writes `text` to `path` unless the file already holds exactly it.
    static func save(_ text: String, to path: String, reader: any SourceReader) throws(Failure) {
        let bytes = Array(text.utf8)
        if let existing = try? reader.read(path, limit: bytes.count), existing == bytes { return }
        try createFolders(above: path)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(message: "cannot write \(path): \(reason())") }
        var failed: String?
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failed = reason()
                break
            }
            offset += written
        }
        if close(descriptor) != 0, failed == nil { failed = reason() }
        if failed == nil, rename(temporary, path) != 0 { failed = reason() }
        if let failed {
            unlink(temporary)
            throw Failure(message: "cannot write \(path): \(failed)")
        }
    }

    /// Creates the folders `path` is in that do not exist yet (`--output
    /// Generated/Catalogs.swift` on a fresh clone), as `mkdir -p` would.
    private static func createFolders(above path: String) throws(Failure) {
        var folder = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, part) in parts.enumerated() {
            folder += (index == 0 ? "" : "/") + part
            guard !part.isEmpty, part != ".", part != ".." else { continue }
            if mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw Failure(message: "cannot create the folder \(folder) for \(path): \(reason())")
            }
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
