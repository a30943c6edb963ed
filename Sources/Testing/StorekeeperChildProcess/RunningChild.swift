public import StorekeeperPlatform

/// A child process started by ``ChildProcess/start()``: poll it, signal it, wait for it.
///
/// Only this handle reaps the child, so a signal it sends reaches that child and never a process
/// that reused its id. A handle dropped before its child was waited for kills (SIGKILL) and reaps
/// it, so that no child outlives it unnoticed. Use a handle from one thread at a time.
public final class RunningChild {
    /// The child's process id.
    public let processID: pid_t
    /// The program, as the ``ChildProcess`` named it.
    public let executable: String
    /// When the spawn began, on ``MonotonicClock``.
    private let startedAt: UInt64
    private let standardOutput: OutputCapture?
    private let standardError: OutputCapture?
    /// How long reading goes on after the child has ended: what it wrote is in its pipes by then,
    /// but a process it started may hold them open for ever.
    private static let readingAfterExit: UInt64 = 10_000_000_000

    /// The child's wait status, resource usage and when it was reaped; nil until then.
    private var exit: (status: Int32, usage: rusage, at: UInt64)?
    /// Why waiting for the child failed, if it did (errno).
    private var waitFailure: Int32?
    private var delayedKillSent = false
    private var timedOut = false

    init(processID: pid_t, executable: String, startedAt: UInt64, standardOutput: OutputCapture?, standardError: OutputCapture?) {
        self.processID = processID
        self.executable = executable
        self.startedAt = startedAt
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    deinit {
        if exit == nil && waitFailure == nil {
            kill(SIGKILL)
            reap(blocking: true)
        }
    }

    /// Whether the child has ended, without waiting (reaping it if so). Reads what its captured
    /// output holds meanwhile, so that a child polled this way never stalls on a full pipe.
    public func hasEnded() -> Bool {
        readOutput(waitingAtMost: 0)
        reap(blocking: false)
        return exit != nil || waitFailure != nil
    }

    /// Sends `signal` to the child, unless it has been reaped already.
    public func kill(_ signal: Int32 = SIGKILL) {
        guard exit == nil, waitFailure == nil else { return }
        _ = send(signal, to: processID)
    }

    /// Waits for the child to end, reading its captured output meanwhile, and says how it ended.
    ///
    /// - Parameters:
    ///   - killAfter: If given, the child is killed with SIGKILL once this long has passed since its
    ///     start, if it is still running: as the system kills an app (``ChildOutcome/delayedKillSent``).
    ///   - timeout: If given, a child still running this long after its start is killed with SIGKILL
    ///     and counted as hung (``ChildOutcome/timedOut``). Without one, a child that never ends is
    ///     waited for for ever.
    /// - Returns: The outcome; the same again if called once more.
    /// - Throws: ``ChildProcessError`` (``ChildProcessError/Step/wait``) when the system cannot wait
    ///   for the child.
    public func wait(killAfter: Duration? = nil, timeout: Duration? = nil) throws(ChildProcessError) -> ChildOutcome {
        let killAt = killAfter.map { startedAt + MonotonicClock.nanoseconds(in: $0) }
        let giveUpAt = timeout.map { startedAt + MonotonicClock.nanoseconds(in: $0) }
        while exit == nil && waitFailure == nil {
            let now = MonotonicClock.nanoseconds()
            if let killAt, !delayedKillSent, now >= killAt {
                delayedKillSent = true
                kill(SIGKILL)
            }
            if let giveUpAt, !timedOut, now >= giveUpAt {
                timedOut = true
                kill(SIGKILL)
            }
            let next = [delayedKillSent ? nil : killAt, timedOut ? nil : giveUpAt].compactMap { $0 }.min()
            if isReadingOutput {
                // Woken by output, by the next deadline, or after 50 ms to notice an exit that left
                // the pipes open (a process the child started holds them).
                readOutput(waitingAtMost: min(next.map { $0 > now ? $0 - now : 0 } ?? .max, 50_000_000))
                reap(blocking: false)
            } else if let next {
                // A sleep, not a blocking wait, to act on time; short, to see the end soon after it comes.
                if next > now { usleep(useconds_t(min(next - now, 2_000_000) / 1_000)) }
                reap(blocking: false)
            } else {
                reap(blocking: true)
            }
        }
        if let waitFailure { throw ChildProcessError(executable: executable, step: .wait, code: waitFailure) }
        guard let exit else { throw ChildProcessError(executable: executable, step: .wait, code: ECHILD) }
        while isReadingOutput {
            let now = MonotonicClock.nanoseconds()
            guard now < exit.at + Self.readingAfterExit else { break }
            readOutput(waitingAtMost: exit.at + Self.readingAfterExit - now)
        }
        standardOutput?.close()
        standardError?.close()
        return ChildOutcome(
            termination: ChildTermination(waitStatus: exit.status),
            standardOutput: standardOutput?.bytes ?? [], standardError: standardError?.bytes ?? [],
            standardOutputExceededLimit: standardOutput?.exceededLimit ?? false,
            standardErrorExceededLimit: standardError?.exceededLimit ?? false,
            delayedKillSent: delayedKillSent, timedOut: timedOut,
            elapsed: .nanoseconds(Int64(exit.at - startedAt)), peakResidentKiB: Self.peakResidentKiB(exit.usage))
    }

    /// Whether a capture's pipe is still open.
    private var isReadingOutput: Bool { standardOutput?.isOpen == true || standardError?.isOpen == true }

    /// Reads what the open captures hold, waiting up to `nanoseconds` for something to arrive; stops
    /// the child once a capture goes past its limit.
    private func readOutput(waitingAtMost nanoseconds: UInt64) {
        let open = [standardOutput, standardError].compactMap { $0 }.filter(\.isOpen)
        guard !open.isEmpty else { return }
        var descriptors = open.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        // Rounded up to a millisecond, poll's unit, so that a deadline is never missed by waking early.
        let milliseconds = Int32(min((nanoseconds + 999_999) / 1_000_000, UInt64(Int32.max)))
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return }
        for (capture, descriptor) in zip(open, descriptors) where descriptor.revents != 0 {
            capture.readReady()
            if capture.exceededLimit { kill(SIGKILL) }
        }
    }

    /// Reaps the child if it has ended (or, when `blocking`, once it has), keeping its status and usage.
    private func reap(blocking: Bool) {
        guard exit == nil, waitFailure == nil else { return }
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let reaped = wait4(processID, &status, blocking ? 0 : WNOHANG, &usage)
            if reaped == processID {
                exit = (status, usage, MonotonicClock.nanoseconds())
                return
            }
            if reaped == 0 { return }
            if errno != EINTR {
                waitFailure = errno
                return
            }
        }
    }

    /// `ru_maxrss` in KiB: Darwin counts it in bytes, Linux in KiB.
    private static func peakResidentKiB(_ usage: rusage) -> Int {
        #if canImport(Darwin)
        Int(usage.ru_maxrss) / 1024
        #else
        Int(usage.ru_maxrss)
        #endif
    }
}

/// `kill(2)`, under a name the handle's own `kill(_:)` does not hide.
private func send(_ signal: Int32, to processID: pid_t) -> Int32 {
    kill(processID, signal)
}
