import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperTestSupport
import Foundation
import Testing

/// Runs the Swift compiler on files in a fresh folder, as a test's proof that
/// generated code compiles (and runs) for real.
struct SwiftCompiler {
    /// The folder the files are written to; removed by ``remove()``.
    let folder: URL

    init() throws {
        folder = try ScratchFolder.create(prefix: "storekeeper-codegen")
    }

    func remove() { ScratchFolder.remove(folder) }

    /// Writes a file into the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// What a process printed and how it ended.
    struct Result {
        var status: Int32
        var output: String
    }

    /// `swiftc ARGUMENTS` in Swift 6 mode with warnings as errors, so that a
    /// warning in generated code fails too.
    func swiftc(_ arguments: [String]) throws -> Result {
        try run("/usr/bin/env", ["swiftc", "-swift-version", "6", "-warnings-as-errors"] + arguments)
    }

    /// Runs a program, its standard output and error merged into one file
    /// (no pipe to fill up), and waits for it, at most two minutes.
    func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let run = try ChildProcess(
            executable, arguments, directory: folder.path, standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
        ).run(timeout: .seconds(120))
        if run.timedOut { Issue.record("\(executable) \(arguments.joined(separator: " ")) took over two minutes") }
        return Result(status: run.termination.shellStatus, output: String(decoding: run.standardOutput + run.standardError, as: UTF8.self))
    }
}
