import StorekeeperChildProcess
import StorekeeperPlatform
import Testing

/// A started child: killed after a delay or at a timeout, signalled, polled. The children sleep far
/// longer than any test waits, so that only the handle can end them; each wait has a timeout of its
/// own, so that a handle that failed to end one fails the test instead of hanging it.
@Suite struct RunningChildTests {
    static let sleeper = ChildProcess("/bin/sh", ["-c", "exec sleep 120"])

    @Test func aKillAfterADelayEndsTheChildAndSaysSo() throws {
        let outcome = try Self.sleeper.run(killAfter: .milliseconds(20), timeout: .seconds(60))
        #expect(outcome.termination == .signalled(SIGKILL))
        #expect(outcome.termination.description == "was killed by signal \(SIGKILL)")
        #expect(outcome.delayedKillSent)
        #expect(!outcome.timedOut)
    }

    @Test func aChildThatEndsBeforeTheDelayIsNotKilled() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", "exit 0"]).run(killAfter: .seconds(60), timeout: .seconds(90))
        #expect(outcome.termination == .exited(0))
        #expect(!outcome.delayedKillSent)
    }

    @Test func aChildStillRunningAtTheTimeoutIsKilledAndCountedAsHung() throws {
        let outcome = try Self.sleeper.run(timeout: .milliseconds(50))
        #expect(outcome.timedOut)
        #expect(outcome.termination == .signalled(SIGKILL))
        #expect(!outcome.delayedKillSent)
    }

    @Test func aSignalSentThroughTheHandleEndsTheChild() throws {
        let child = try Self.sleeper.start()
        #expect(!child.hasEnded())
        child.kill(SIGTERM)
        let outcome = try child.wait(timeout: .seconds(60))
        #expect(outcome.termination == .signalled(SIGTERM))
        #expect(!outcome.timedOut)
        #expect(child.hasEnded())
        #expect(try child.wait() == outcome)
    }

    /// More than a pipe holds: a child polled with `hasEnded` only ends if polling reads its output.
    @Test func pollingReadsCapturedOutputSoTheChildNeverStalls() throws {
        let size = 1 << 20
        let child = try ChildProcess("/bin/sh", ["-c", "head -c \(size) /dev/zero"], standardOutput: .capture(limit: size)).start()
        var polls = 0
        while !child.hasEnded() && polls < 300_000 {
            polls += 1
            usleep(200)
        }
        let outcome = try child.wait(timeout: .seconds(1))
        #expect(!outcome.timedOut)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput.count == size)
    }
}
