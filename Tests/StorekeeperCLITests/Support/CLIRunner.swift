import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperPlatform
import StorekeeperTestSupport
import Foundation
import Testing


/// What one run of the `storekeeper` executable produced.
struct CLIResult: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when ``signaled``.
    var status: Int32
    /// Whether the process was ended by a signal (a crash, or our kill on timeout).
    var signaled: Bool
    /// Whether the run exceeded its time limit and was killed.
    var timedOut: Bool
    var stdoutData: Data
    var stderrData: Data

    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    var stderr: String { String(decoding: stderrData, as: UTF8.self) }

    /// Whether the process ended on its own with an exit status (no signal, no timeout).
    var exitedNormally: Bool { !signaled && !timedOut }

    /// The last line of standard output (the text reporter's summary).
    var lastStdoutLine: String? {
        stdout.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init)
    }

    var description: String {
        let how = timedOut ? "timed out" : signaled ? "killed by signal \(status)" : "exit \(status)"
        return "[\(how)]\n--- stdout (\(stdoutData.count) bytes) ---\n\(stdout.prefix(4000))\n--- stderr ---\n\(stderr.prefix(4000))"
    }
}

/// Runs the `storekeeper` executable built next to the test bundle as a child
/// process, with pipes for its output, a chosen environment and working
/// directory, and a time limit after which it is killed.
enum CLI {
    /// How long one run may take before it counts as a hang.
    static let timeLimit: TimeInterval = 20

    /// The environment of a run: no colour hints beyond what a test adds, a
    /// colour-capable `TERM` (so that the absence of colour is down to the pipe
    /// or `NO_COLOR`, not to `TERM=dumb`), and `NO_COLOR` unset.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": FileManager.default.temporaryDirectory.path,
            "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// The directory that holds the test bundle, and so the `storekeeper` executable.
    static let productsDirectory: URL = {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        #else
        let this = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: this).deletingLastPathComponent()
        #endif
    }()

    /// The `storekeeper` executable.
    static var executable: URL { productsDirectory.appendingPathComponent("storekeeper") }

    /// Runs `storekeeper ARGUMENTS` in `directory`, off the cooperative pool.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = CLI.environment(),
        standardOutput: FileHandle? = nil
    ) async throws -> CLIResult {
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "no storekeeper executable at \(executable.path); build with `swift build --build-tests`")
        let box = UncheckedBox(standardOutput)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: runBlocking(
                    arguments, in: directory, environment: environment, standardOutput: box.value))
            }
        }
    }

    /// Runs the executable and waits for it, at most ``timeLimit`` seconds.
    private static func runBlocking(
        _ arguments: [String], in directory: URL, environment: [String: String], standardOutput: FileHandle?
    ) -> CLIResult {
        do {
            let run = try ChildProcess(
                executable.path, arguments, directory: directory.path, environment: environment,
                standardOutput: standardOutput.map { .descriptor($0.fileDescriptor) } ?? .capture(limit: .max),
                standardError: .capture(limit: .max)
            ).run(timeout: .seconds(timeLimit))
            let (status, signaled) = switch run.termination {
            case .exited(let status): (status, false)
            case .signalled(let signal): (signal, true)
            }
            return CLIResult(
                status: status, signaled: signaled, timedOut: run.timedOut,
                stdoutData: Data(run.standardOutput), stderrData: Data(run.standardError))
        } catch {
            return CLIResult(
                status: -1, signaled: false, timedOut: false, stdoutData: Data(),
                stderrData: Data("could not launch \(executable.path): \(error)".utf8))
        }
    }
}

/// Carries a non-Sendable value to another thread that alone uses it afterwards.
struct UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A fresh directory for one test's files, removed when the test is done.
final class Workspace {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeeper-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes text to a file (creating folders), and returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        try write(name, bytes: Array(text.utf8))
    }

    /// Writes bytes to a file (creating folders), and returns its URL.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file
    }

    /// Creates a folder.
    func makeDirectory(_ name: String) throws {
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent(name), withIntermediateDirectories: true)
    }

    /// A symbolic link at `name` (creating folders) whose target is `destination`, as written.
    func link(_ name: String, to destination: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: destination)
    }

    /// Runs `storekeeper ARGUMENTS` in this directory.
    func run(
        _ arguments: String..., environment: [String: String] = CLI.environment()
    ) async throws -> CLIResult {
        try await CLI.run(arguments, in: url, environment: environment)
    }
}

/// Paths in this package, found from this file's location.
enum PackagePaths {
    /// The package root.
    static let root = URL(fileURLWithPath: PackageRoot.path)

    /// The example catalogs.
    static var catalogs: URL { root.appendingPathComponent("Catalogs", isDirectory: true) }
}

/// A small, valid catalog; `extra` is spliced in at the top level.
func validCatalog(name: String = "shop", minimumOS: String = "\"15.0\"", extra: String = "") -> String {
    """
    catalog: \(name)
    app:
      bundle-id: com.example.\(name.replacingOccurrences(of: "-", with: ""))
      minimum-os: \(minimumOS)
    \(extra)products:
      - id: com.example.shop.coins
        type: consumable
        reference-name: Coins
        price: "0.99"
        localizations:
          en-US: {title: Coins, description: A bag of coins}
        delivery: built-in
        persistence: app-state
        restore: none

    """
}

/// Every byte of `data` that is a control character other than line feed and tab.
func controlCharacters(in data: Data) -> [UInt8] {
    Array(data).filter { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }
}
