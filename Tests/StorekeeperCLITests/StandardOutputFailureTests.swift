import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output that cannot be written (a full disk, a descriptor not
/// open for writing) is a run that did not work: exit status 2 and a line on
/// standard error saying what could not be written, for every command.
@Suite("Standard output failure")
struct StandardOutputFailureTests {
    static let catalog = "Catalogs/rocket-racer/catalog.yaml"
    static let scenario = "Catalogs/rocket-racer/scenarios/testing-steps.yaml"

    /// Every command that writes to standard output, with what it names.
    static let commands: [(arguments: [String], what: String)] = [
        (["validate", catalog], "the report"),
        (["validate", "--format", "json", catalog], "the report"),
        (["validate", "--format", "sarif", catalog], "the report"),
        (["validate", "--format", "github", catalog], "the report"),
        (["diff", catalog, catalog], "the report"),
        (["diff", "--list-checks"], "the list of checks"),
        (["schema"], "the schema"),
        (["compile", catalog], "the policy"),
        (["explain", catalog], "the explanation"),
        (["explain", "--format", "mermaid", catalog], "the diagram"),
        (["export", catalog, "--format", "storekit"], "the export"),
        (["import", StoreKitCommandTests.fixtures.appendingPathComponent(StoreKitCommandTests.revenueCat).path, "--name", "shop"], "the catalog"),
        (["rules"], "the rules"),
        (["rules", "--format", "json"], "the rules"),
        (["simulate", catalog, scenario], "the trace"),
        (["simulate", "--format", "json", catalog, scenario], "the trace"),
        (["--help"], "the help or version"),
        (["validate", "--help"], "the help or version"),
        (["--version"], "the help or version"),
    ]

    /// Runs `arguments` with standard output on `output`, opened with `flags`.
    static func run(_ arguments: [String], output path: String, flags: Int32) async throws -> CLIResult {
        let descriptor = open(path, flags)
        try #require(descriptor >= 0, "cannot open \(path)")
        defer { close(descriptor) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        return try await CLI.run(arguments, in: PackagePaths.root, standardOutput: handle)
    }

    @Test(
        "a full disk (/dev/full) is exit status 2, with what could not be written and why",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
        arguments: commands.indices)
    func fullDisk(_ index: Int) async throws {
        let command = Self.commands[index]
        let result = try await Self.run(command.arguments, output: "/dev/full", flags: O_WRONLY)
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 2, "\(command.arguments): \(result)")
        // Last, after any notes the command gave on the way (export, import).
        #expect(result.stderr.hasSuffix("\nstorekeeper: error: could not write \(command.what) to standard output: No space left on device\n")
                || result.stderr == "storekeeper: error: could not write \(command.what) to standard output: No space left on device\n",
                "\(command.arguments): \(result)")
    }

    @Test("standard output open only for reading is exit status 2 too, on every system")
    func notWritable() async throws {
        let result = try await Self.run(["validate", Self.catalog], output: "/dev/null", flags: O_RDONLY)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "storekeeper: error: could not write the report to standard output: Bad file descriptor\n", "\(result)")
    }
}
