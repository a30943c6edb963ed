// storekeeper-benchmark: measures `storekeeper validate` and `compile` against libyaml's bare event scan
// of the same catalog, and dispatch in a compiled policy against a plain memory walk. See `Command.usage`
// for the commands and docs/performance.md for the method and the figures. `dispatch` times the
// transaction queue: compiled plans against a hand-written switch in memory, and durable dispatch.

import StorekeeperCore
import StorekeeperPlatform

/// Runs `command`, returning the process's exit status.
func execute(_ command: Command) async -> Int32 {
    do {
        switch command {
        case .help:
            print(Command.usage)
        case .generate(let productCount, let path):
            try CatalogGenerator(productCount: productCount).writeFile(at: path)
        case .scan(let path):
            let bytes = try FileSystem.readAll(path)
            do {
                let events = try BareScan.scan(bytes)
                print("\(path): \(bytes.count) bytes, \(events) events")
            } catch let error as BareScan.SyntaxError {
                StandardError.print("\(path):\(error)")
                return 1
            }
        case .run(let options):
            let driver = try BenchmarkDriver(options: options)
            let results = try driver.run()
            let typoResults = try driver.runTypos()
            let validate = [displayPath(driver.storekeeperExecutable), "validate", "FILE"]
            let report = BenchmarkReport(
                commandLine: CommandLine.arguments.map(ShellQuoting.quote).joined(separator: " "),
                validateCommand: (validate + BenchmarkDriver.validateOptions).joined(separator: " "),
                formatOnlyCommand: (validate + BenchmarkDriver.formatOnlyOptions).joined(separator: " "),
                compileCommand: ([displayPath(driver.storekeeperExecutable), "compile", "FILE", "--output", "POLICY"]
                    + BenchmarkDriver.compileOptions).joined(separator: " "),
                host: HostDescription.current(),
                repetitions: options.repetitions,
                results: results,
                typoResults: typoResults)
            print(report.markdown, terminator: "")
        case .lookups(let options):
            let result = try LookupBenchmark(options: options).run()
            let report = LookupReport(
                commandLine: CommandLine.arguments.map(ShellQuoting.quote).joined(separator: " "),
                host: HostDescription.current(),
                repetitions: options.repetitions,
                result: result)
            print(report.markdown, terminator: "")
        case .dispatch(let options):
            if let loop = options.profile {
                try await DispatchBenchmark(options: options).profile(loop)
                return 0
            }
            let result = try await DispatchBenchmark(options: options).run()
            let report = DispatchReport(
                commandLine: CommandLine.arguments.map(ShellQuoting.quote).joined(separator: " "),
                host: HostDescription.current(),
                result: result)
            print(report.markdown, terminator: "")
        }
        return 0
    } catch {
        StandardError.print("storekeeper-benchmark: \(error)")
        return 1
    }
}

/// `path` relative to the current directory when it lies inside it, so reports do not show where a checkout lives.
func displayPath(_ path: String) -> String {
    guard let directory = FileSystem.currentDirectory(), path.hasPrefix(directory + "/") else { return path }
    return String(path.dropFirst(directory.count + 1))
}

let command: Command
do {
    command = try Command(parsing: CommandLine.arguments.dropFirst())
} catch {
    StandardError.print("storekeeper-benchmark: \(error)\n")
    StandardError.print(Command.usage)
    exit(2)
}
exit(SynchronousMain.run { await execute(command) })
