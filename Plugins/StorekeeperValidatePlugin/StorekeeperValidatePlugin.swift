import Foundation
import PackagePlugin

/// `swift package storekeeper-validate [PATH...] [OPTION...]`: runs
/// `storekeeper validate` over the package's catalogs (through the
/// `storekeeper-validate` tool: the same command, without the simulator
/// and its SQLite, which a host build of the whole CLI would compile).
///
/// - With no path, validates `Catalogs/` in the package directory (the one
///   `swift package` works on, `context.package.directoryURL`); with paths,
///   validates those instead.
/// - Every argument is passed to `validate` unchanged and in order, so
///   options added to `validate` later work here without changing this file.
///   Telling an option's value from a path (`--format json` against
///   `--strict x.yaml`) uses the tool's own description of its options
///   (ArgumentParser's `--experimental-dump-help`).
/// - `validate` runs with the package directory as its working directory, so
///   relative paths, positional or in option values, mean what they mean to
///   `storekeeper validate` run at the package root, and the output names
///   files the same way. The plugin's own working directory is the one
///   `swift package` was started in, which is not the package directory
///   under `--package-path` or from a subdirectory.
/// - Standard output and error are inherited, so the output is the CLI's,
///   byte for byte. But SwiftPM reads a command plugin's output through a
///   pipe, with its standard error merged into its standard output, so:
///   the CLI's error messages arrive on `swift package`'s standard output;
///   `--color auto` never colours (pass `--color always`); and SwiftPM's own
///   build lines ("Building for debugging...", "Build of product
///   'storekeeper' complete!") come first, on standard error.
/// - Exit status: see `finish(status:)`.
///
/// Sandboxing: on Linux command plugins run unsandboxed. On macOS SwiftPM
/// runs them, and the processes they start, in a sandbox that denies network
/// access and writes outside temporary directories (unless
/// `--allow-writing-to-package-directory` or `--disable-sandbox` is given)
/// but allows reading any file. `validate` only reads, so it needs no
/// permission flag there either. (Measured on Linux only; inside another
/// sandbox on macOS, SwiftPM may fail to start its own: `--disable-sandbox`.)
@main
struct StorekeeperValidatePlugin: CommandPlugin {
    /// The directory validated when no path is given, relative to the package.
    static let defaultDirectory = "Catalogs"

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let packageDirectory = context.package.directoryURL
        let tool = try context.tool(named: "storekeeper-validate").url

        var toolArguments = ["validate"] + arguments
        let shape = ArgumentShape.load(tool: tool, workingDirectory: packageDirectory)
        if !shape.containsPath(arguments, packageDirectory: packageDirectory) && !Self.asksForHelp(arguments) {
            let catalogs = packageDirectory.appending(path: Self.defaultDirectory, directoryHint: .isDirectory)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: catalogs.path(percentEncoded: false), isDirectory: &isDirectory),
                  isDirectory.boolValue
            else {
                Self.fail("""
                    no catalogs to validate: there is no directory \(catalogs.path(percentEncoded: false)). \
                    Put the package's catalogs in \(Self.defaultDirectory)/, or name them: \
                    `swift package storekeeper-validate PATH...` (paths relative to the package directory).
                    """)
            }
            // Appended after everything else, past a `--` unless the user
            // already ended the options, so it is always read as a path.
            if arguments.contains("--") {
                toolArguments.append(Self.defaultDirectory)
            } else {
                toolArguments += ["--", Self.defaultDirectory]
            }
        }

        let process = Process()
        process.executableURL = tool
        process.arguments = toolArguments
        process.currentDirectoryURL = packageDirectory
        // Standard input, output and error are left as they are: inherited.
        do {
            try process.run()
        } catch {
            Self.fail("could not start \(tool.path(percentEncoded: false)): \(error)")
        }
        process.waitUntilExit()

        switch process.terminationReason {
        case .exit:
            finish(status: process.terminationStatus)
        case .uncaughtSignal:
            Self.fail("storekeeper was killed by signal \(process.terminationStatus)")
        @unknown default:
            Self.fail("storekeeper ended abnormally (\(process.terminationStatus))")
        }
    }

    /// Whether the arguments ask for `validate`'s help, which needs no path.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" || $0 == "-help" }
    }

    /// Ends the plugin with `validate`'s status: 0 returns normally (SwiftPM
    /// then exits 0); anything else exits the plugin process with that
    /// status at once.
    ///
    /// SwiftPM (6.3) collapses any failure of a command plugin to exit
    /// status 1 (swiftlang/swift-package-manager#7380), so
    /// `swift package storekeeper-validate` exits 1 both when the catalogs
    /// have errors and when `validate` could not run. Exiting with the status
    /// (rather than throwing, which also gives 1) keeps it visible: SwiftPM
    /// prints `error: Plugin ended with exit code N` on standard error, and a
    /// SwiftPM that passes the status through needs no change here.
    func finish(status: Int32) {
        guard status != 0 else { return }
        exit(status)
    }

    /// Reports a failure of the plugin itself (not of the catalogs) and
    /// exits with the CLI's "could not run" status.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("storekeeper-validate: error: \(message)\n".utf8))
        exit(2)
    }
}

/// Which of `validate`'s options take a value, learned from the tool itself
/// (`--experimental-dump-help`), so that option values are not mistaken for
/// paths and options added later need no change here.
struct ArgumentShape {
    /// Names, with their dashes (`--format`, `-f`), of options taking one value.
    var optionsWithValue: Set<String> = []
    /// Names of options taking every value up to the next option.
    var optionsUpToNextOption: Set<String> = []
    /// Names of options taking everything after them.
    var optionsTakingRest: Set<String> = []
    /// False when the tool could not describe itself.
    var known = false

    static func load(tool: URL, workingDirectory: URL) -> ArgumentShape {
        let process = Process()
        process.executableURL = tool
        process.arguments = ["validate", "--experimental-dump-help"]
        process.currentDirectoryURL = workingDirectory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return ArgumentShape()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0,
              let info = try? JSONDecoder().decode(ToolInfo.self, from: data)
        else {
            return ArgumentShape()
        }
        var shape = ArgumentShape(known: true)
        for argument in info.command.arguments ?? [] where argument.kind == "option" {
            let names = (argument.names ?? []).map { $0.kind == "long" ? "--\($0.name)" : "-\($0.name)" }
            switch argument.parsingStrategy {
            case "upToNextOption":
                shape.optionsUpToNextOption.formUnion(names)
            case "remaining", "allRemainingInput", "postTerminator", "allUnrecognized":
                shape.optionsTakingRest.formUnion(names)
            default:
                shape.optionsWithValue.formUnion(names)
            }
        }
        return shape
    }

    /// Whether the user's arguments name at least one path.
    func containsPath(_ arguments: [String], packageDirectory: URL) -> Bool {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                return index < arguments.endIndex
            }
            if argument.hasPrefix("-") && argument != "-" {
                guard known else { continue }
                if argument.contains("=") { continue }
                if optionsTakingRest.contains(argument) { return false }
                if optionsWithValue.contains(argument) {
                    index += 1
                } else if optionsUpToNextOption.contains(argument) {
                    while index < arguments.endIndex, !arguments[index].hasPrefix("-") { index += 1 }
                }
                continue
            }
            if known {
                return true
            }
            // Without the tool's description, a word that names something in
            // the package directory (or an absolute path) is taken for a path.
            let url = argument.hasPrefix("/")
                ? URL(filePath: argument)
                : packageDirectory.appending(path: argument)
            if FileManager.default.fileExists(atPath: url.path(percentEncoded: false)) {
                return true
            }
        }
        return false
    }
}

/// The part of ArgumentParser's `--experimental-dump-help` output read here.
struct ToolInfo: Decodable {
    struct Command: Decodable {
        var arguments: [Argument]?
    }
    struct Argument: Decodable {
        var kind: String
        var names: [Name]?
        var parsingStrategy: String?
    }
    struct Name: Decodable {
        var kind: String
        var name: String
    }
    var command: Command
}
