import Foundation
import StorekeeperChildProcess
import Testing

/// What one run of `storekeeper-server` produced.
struct CommandResult: CustomStringConvertible {
    var status: Int32?
    var stdout: String
    var stderr: String

    var description: String { "[exit \(status.map(String.init) ?? "by a signal")]\n--- stdout ---\n\(stdout.prefix(4000))\n--- stderr ---\n\(stderr.prefix(4000))" }
}

/// The `storekeeper-server` executable built beside the test bundle, run as a child process.
enum ServerExecutable {
    /// How long one command may run before it counts as hung (a guard, not a measurement).
    static let timeLimit: Duration = .seconds(60)

    static let productsDirectory: URL = {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        #else
        let this = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: this).deletingLastPathComponent()
        #endif
    }()

    static var path: String { productsDirectory.appendingPathComponent("storekeeper-server").path }

    /// A minimal environment (no STOREKEEPER_SERVER_* of the machine's), plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": FileManager.default.temporaryDirectory.path,
            "LANG": "C.UTF-8",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `storekeeper-server ARGUMENTS` to its end, off the cooperative pool.
    static func run(_ arguments: [String], environment: [String: String] = environment(), directory: String? = nil) async throws -> CommandResult {
        try #require(FileManager.default.isExecutableFile(atPath: path), "no storekeeper-server at \(path); build with `swift build --build-tests`")
        return try await runChild(ChildProcess(
            path, arguments, directory: directory, environment: environment,
            standardOutput: .capture(limit: 1 << 22), standardError: .capture(limit: 1 << 22)))
    }

    /// Runs `storekeeper-server ARGUMENTS < file` (ChildProcess gives a child /dev/null as its
    /// standard input, so a shell redirects it).
    static func run(_ arguments: [String], standardInput file: String, environment: [String: String] = environment()) async throws -> CommandResult {
        try #require(FileManager.default.isExecutableFile(atPath: path), "no storekeeper-server at \(path)")
        return try await runChild(ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" \"$@\" < \"$INPUT_FILE\"", path] + arguments,
            environment: environment.merging(["INPUT_FILE": file]) { _, new in new },
            standardOutput: .capture(limit: 1 << 22), standardError: .capture(limit: 1 << 22)))
    }

    private static func runChild(_ child: ChildProcess) async throws -> CommandResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let outcome = try child.run(timeout: timeLimit)
                    let status: Int32? = if case .exited(let code) = outcome.termination { code } else { nil }
                    continuation.resume(returning: CommandResult(
                        status: status, stdout: String(decoding: outcome.standardOutput, as: UTF8.self),
                        stderr: String(decoding: outcome.standardError, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
