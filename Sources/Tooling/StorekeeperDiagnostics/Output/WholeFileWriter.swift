import StorekeeperCore
import StorekeeperPlatform

/// Writes an output file (`--output`) whole or not at all, and never through
/// anything planted in its folder: the one home of this mechanism for
/// `storekeeper` and `storekeeper-codegen`.
///
/// The text goes to a temporary file created beside the target under a
/// random name (`.NAME.<16 hex digits>.tmp`), opened with `O_CREAT|O_EXCL|
/// O_NOFOLLOW`: a file or a link already at that name makes the open fail
/// (and another random name is tried), so a link planted in a shared folder
/// is never written through. The file is flushed, renamed over the target
/// and the folder flushed, so a reader sees the old file or the new one,
/// never a mix, and a failed write leaves the old one in place.
///
/// The target must be a regular file or absent: a symbolic link, a FIFO, a
/// device node (`/dev/null`), a socket or a folder is refused, never replaced
/// by a regular file. A path that the command line could not pass on as
/// typed (a name that is not UTF-8) is refused too; see ``ArgumentBytes``.
public enum WholeFileWriter {
    /// Why the file could not be written: a sentence naming the path.
    public struct Failure: Error, Sendable, Equatable {
        /// `cannot write PATH: REASON; WHAT TO DO`.
        public var message: String

        /// A failure with its message.
        public init(message: String) { self.message = message }
    }

    /// Why `path` cannot be written, for a command to say before it does
    /// its work: what is there is not a regular file, its folder is
    /// missing, or its name is not the one typed. A clause with what to do
    /// instead, without the path; `nil` when it can be written (as far as
    /// can be told without writing).
    public static func problem(writingTo path: String) -> String? {
        if let problem = nameProblem(path) { return problem }
        let name = lastComponent(of: path)
        guard !name.isEmpty, name != ".", name != ".." else {
            return "it does not end in a file name; add the name of the file to write"
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            if let kind = Self.kind(of: info.st_mode) {
                return "it is \(kind); name a regular file (it is replaced whole) or a path that does not exist yet"
            }
            return nil
        }
        let folder = self.folder(of: path)
        guard stat(folder, &info) == 0 else {
            return "the folder \(folder) does not exist; create it, or write elsewhere"
        }
        return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(folder) is not a folder"
    }

    /// Why `path` is not the name that was typed: the argument it came from
    /// is not valid UTF-8 (see ``ArgumentBytes``), so writing would create
    /// a file under another name. `nil` when it is the name typed.
    public static func nameProblem(_ path: String) -> String? {
        guard let typed = ArgumentBytes.repairedArgument(endingWith: path) else { return nil }
        return "the name given, \(ArgumentBytes.escaped(typed)), is not valid UTF-8 and cannot be kept byte for byte; name the file in UTF-8"
    }

    /// Replaces the file at `path` with `text` (UTF-8), or leaves it as it
    /// was and throws. The folder must exist.
    public static func write(_ text: String, to path: String) throws(Failure) {
        try write(text, to: path, temporaryName: DurableFile.randomTemporaryName)
    }

    /// ``write(_:to:)`` with the temporary file's name chosen by
    /// `temporaryName` (given the target's last component): tests plant
    /// files and links at the names it gives.
    static func write(_ text: String, to path: String, temporaryName: (String) -> String) throws(Failure) {
        if let problem = problem(writingTo: path) { throw Failure(message: "cannot write \(path): \(problem)") }
        do throws(DurableFile.Failure) {
            try DurableFile.replace(path, with: Array(text.utf8), temporaryName: temporaryName)
        } catch where error.isReplaced {
            // The file is written; a folder that cannot be flushed is not an error of the output.
        } catch {
            // The temporary file's own path says nothing to the user; its folder does.
            let detail = error.action == DurableFile.Failure.creatingTemporary ? error.description : error.reason
            throw Failure(message: "cannot write \(path): \(detail)")
        }
    }

    /// The first of `inputs` that is the same file as `path` (same device
    /// and inode, whatever the spelling or links), if `path` exists: an
    /// output must not replace what it is made from.
    public static func sameFile(_ path: String, asAnyOf inputs: [String]) -> String? {
        var target = stat()
        guard stat(path, &target) == 0 else { return nil }
        for input in inputs {
            var other = stat()
            if stat(input, &other) == 0, other.st_dev == target.st_dev, other.st_ino == target.st_ino { return input }
        }
        return nil
    }

    /// What a file of mode `mode` is, in words, when it is not a regular file.
    static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFLNK: "a symbolic link (links are not followed, so that one planted there cannot redirect the output)"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device node"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a name at the root.
    static func folder(of path: String) -> String { DurableFile.folder(of: path) }

    private static func lastComponent(of path: String) -> String { DurableFile.lastComponent(of: path) }
}
