import StorekeeperChildProcess
import StorekeeperPlatform
import Testing

/// A captured stream's limit: output up to it is kept whole; a child that writes past it is stopped,
/// and the outcome says which stream went over.
@Suite struct OutputLimitTests {
    @Test func outputOfExactlyTheLimitIsKeptWhole() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", "printf abc"], standardOutput: .capture(limit: 3)).run(timeout: .seconds(60))
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput == Array("abc".utf8))
        #expect(!outcome.standardOutputExceededLimit)
    }

    @Test func aChildWritingPastTheLimitIsStoppedAndTheFirstBytesKept() throws {
        // `yes` writes for ever: only the limit ends it.
        let outcome = try ChildProcess("/bin/sh", ["-c", "exec yes"], standardOutput: .capture(limit: 1_001)).run(timeout: .seconds(60))
        #expect(outcome.standardOutputExceededLimit)
        #expect(!outcome.standardErrorExceededLimit)
        #expect(!outcome.timedOut)
        #expect(outcome.standardOutput == Array(String(repeating: "y\n", count: 501).utf8.prefix(1_001)))
        guard case .signalled = outcome.termination else {
            Issue.record("the child \(outcome.termination)")
            return
        }
    }

    @Test func standardErrorHasALimitOfItsOwn() throws {
        let outcome = try ChildProcess(
            "/bin/sh", ["-c", "printf out; exec yes >&2"], standardOutput: .capture(limit: 1_000), standardError: .capture(limit: 10)
        ).run(timeout: .seconds(60))
        #expect(outcome.standardErrorExceededLimit)
        #expect(!outcome.standardOutputExceededLimit)
        #expect(outcome.standardOutput == Array("out".utf8))
        #expect(outcome.standardError == Array("y\ny\ny\ny\ny\n".utf8))
    }
}
