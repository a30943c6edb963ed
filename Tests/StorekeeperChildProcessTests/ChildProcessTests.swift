import StorekeeperChildProcess
import StorekeeperPlatform
import Testing

/// Starting a program and reading how it ended: exit status, captured streams, the folder, the
/// environment and arguments it gets, and the errors that say why it could not start.
@Suite struct ChildProcessTests {
    /// A shell script as a child, its standard output and error captured.
    static func shell(_ script: String, directory: String? = nil, environment: [String: String]? = nil) -> ChildProcess {
        ChildProcess(
            "/bin/sh", ["-c", script], directory: directory, environment: environment,
            standardOutput: .capture(limit: 1 << 20), standardError: .capture(limit: 1 << 20))
    }

    @Test func theExitStatusIsTheOneTheChildGave() throws {
        let outcome = try Self.shell("exit 3").run(timeout: .seconds(60))
        #expect(outcome.termination == .exited(3))
        #expect(outcome.termination.description == "exited with status 3")
        #expect(!outcome.timedOut && !outcome.delayedKillSent)
    }

    @Test func standardOutputAndErrorAreCapturedApart() throws {
        let outcome = try Self.shell("printf out; printf err >&2").run(timeout: .seconds(60))
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput == Array("out".utf8))
        #expect(outcome.standardError == Array("err".utf8))
    }

    @Test func aMissingProgramAtAPathIsAnErrorThatNamesIt() throws {
        let error = try #require(throws: ChildProcessError.self) {
            try ChildProcess("/nonexistent-storekeeper-folder/tool", []).run()
        }
        #expect(error.isMissingExecutable)
        #expect(error.description == "cannot start /nonexistent-storekeeper-folder/tool: \(String(cString: strerror(ENOENT)))")
    }

    @Test func aMissingProgramOnThePathIsAnErrorThatSaysWhereItWasLookedFor() throws {
        let error = try #require(throws: ChildProcessError.self) {
            try ChildProcess("storekeeper-no-such-program", []).run()
        }
        #expect(error.isMissingExecutable)
        #expect(error.description == "cannot start storekeeper-no-such-program: no program of that name on PATH")
    }

    @Test func aMissingFolderIsNotTakenForAMissingProgram() throws {
        let error = try #require(throws: ChildProcessError.self) {
            try ChildProcess("/bin/sh", ["-c", "exit 0"], directory: "/nonexistent-storekeeper-folder").run()
        }
        #expect(!error.isMissingExecutable)
        #expect(error.step == .enterDirectory("/nonexistent-storekeeper-folder"))
        #expect(error.description.hasPrefix("cannot start /bin/sh in /nonexistent-storekeeper-folder: "))
    }

    @Test func anOutputFileThatCannotBeOpenedIsNamed() throws {
        let path = "/nonexistent-storekeeper-folder/out.txt"
        let error = try #require(throws: ChildProcessError.self) {
            try ChildProcess("/bin/sh", ["-c", "exit 0"], standardOutput: .file(path)).run()
        }
        #expect(!error.isMissingExecutable)
        #expect(error.description.hasPrefix("cannot open \(path) for the output of /bin/sh: "))
    }

    @Test func anArgumentHoldingANulByteIsRefused() throws {
        let error = try #require(throws: ChildProcessError.self) {
            try ChildProcess("/bin/sh", argumentBytes: [Array("-c".utf8), [0x65, 0x00, 0x66]]).run()
        }
        #expect(error.step == .passArguments)
        #expect(error.description == "cannot start /bin/sh: an argument or an environment variable holds a NUL byte, which no program can be given")
    }

    @Test func theChildStartsInTheFolderGiven() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", "pwd -P"], directory: "/", standardOutput: .capture(limit: 4096))
            .run(timeout: .seconds(60))
        #expect(outcome.standardOutput == Array("/\n".utf8))
    }

    @Test func anEnvironmentGivenIsTheChildsWholeEnvironment() throws {
        let outcome = try Self.shell(#"printf '%s|%s' "$STOREKEEPER_PROBE" "${HOME-unset}""#, environment: ["STOREKEEPER_PROBE": "given"])
            .run(timeout: .seconds(60))
        #expect(String(decoding: outcome.standardOutput, as: UTF8.self) == "given|unset")
    }

    @Test func argumentsArePassedAsTheirBytes() throws {
        let name: [UInt8] = [0x66, 0xFF, 0x67]  // not UTF-8
        let outcome = try ChildProcess(
            "/bin/sh", argumentBytes: [Array("-c".utf8), Array(#"printf %s "$1""#.utf8), Array("sh".utf8), name],
            standardOutput: .capture(limit: 4096)
        ).run(timeout: .seconds(60))
        #expect(outcome.standardOutput == name)
    }

    @Test func outputCanGoToAFile() throws {
        let path = "/tmp/storekeeper-child-process-\(getpid())-output.txt"
        defer { unlink(path) }
        let outcome = try ChildProcess("/bin/sh", ["-c", "printf written"], standardOutput: .file(path)).run(timeout: .seconds(60))
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput.isEmpty)
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(0, count))) == Array("written".utf8))
    }

    @Test func theChildsResourceUsageIsReported() throws {
        let outcome = try Self.shell("exit 0").run(timeout: .seconds(60))
        #expect(outcome.peakResidentKiB > 0)
        #expect(outcome.elapsed > .zero)
    }
}
