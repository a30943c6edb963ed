import StorekeeperCore
import StorekeeperPlatform

/// The few file-system operations the benchmark needs, over the C library alone.
enum FileSystem {
    /// Reads a whole regular file into memory, in one buffer of the size `fstat` gives.
    ///
    /// - Parameter path: The file to read.
    /// - Returns: The file's bytes.
    /// - Throws: ``BenchmarkError`` when the file cannot be opened or read.
    static func readAll(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchmarkError.system("open", path, code: errno) }
        defer { _ = close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw BenchmarkError.system("stat", path, code: errno) }
        let size = max(Int(status.st_size), 0)
        var readError: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while initialized < size {
                let count = read(descriptor, buffer.baseAddress.map { $0 + initialized }, size - initialized)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { readError = errno }
                if count <= 0 { return }  // an error, or the file shrank: keep what was read
                initialized += count
            }
        }
        guard readError == 0 else { throw BenchmarkError.system("read", path, code: readError) }
        return bytes
    }

    /// The size of a file in bytes.
    ///
    /// - Throws: ``BenchmarkError`` when the file cannot be examined.
    static func size(of path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw BenchmarkError.system("stat", path, code: errno) }
        return Int(status.st_size)
    }

    /// Removes the file at `path`, if there is one, so that a later check of it cannot read a stale one.
    ///
    /// - Throws: ``BenchmarkError`` when a file is there and cannot be removed.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw BenchmarkError.system("unlink", path, code: errno) }
    }

    /// Whether `path` names a file this process may execute.
    static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// Creates a directory and any missing parents, like `mkdir -p`.
    ///
    /// - Throws: ``BenchmarkError`` when a directory cannot be created.
    static func createDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw BenchmarkError.system("mkdir", prefix, code: errno)
            }
            prefix += "/"
        }
    }

    /// The directory part of a path: everything before its last `/`, or `.` when it has none.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The absolute path of the running executable.
    ///
    /// On Linux it is the target of `/proc/self/exe`.
    ///
    /// - Throws: ``BenchmarkError`` when the system will not say.
    static func currentExecutablePath() throws -> String {
        #if canImport(Darwin)
        var size = UInt32(PATH_MAX)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else {
            throw BenchmarkError("cannot find the path of the running executable")
        }
        guard let resolved = realpath(buffer, nil) else {
            throw BenchmarkError.system("realpath", String(cString: buffer), code: errno)
        }
        defer { free(resolved) }
        return String(cString: resolved)
        #else
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw BenchmarkError.system("readlink", "/proc/self/exe", code: errno) }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }

    /// The current working directory, or `nil` when the system will not say.
    static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
