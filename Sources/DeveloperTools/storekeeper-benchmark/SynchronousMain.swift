import Foundation

/// Runs the benchmark's asynchronous work from synchronous top-level code: on a detached task, the main
/// thread waiting on a semaphore.
///
/// Not top-level `await`: that parks the main thread in libdispatch's `sigsuspend`, whose signal mask is
/// read-only memory, and valgrind 3.19 writes to that mask and dies (`Valgrind received a signal 11`).
/// The instruction counts in docs/performance.md come from callgrind, so the benchmark must run under it.
enum SynchronousMain {
    /// Runs `body` to its end and returns what it returned.
    static func run(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        let result = Outcome()
        Task.detached {
            result.status = await body()
            result.done.signal()
        }
        result.done.wait()
        return result.status
    }

    /// The status, written by the task before it signals and read by the main thread after the wait,
    /// which orders the two.
    private final class Outcome: @unchecked Sendable {
        var status: Int32 = 0
        let done = DispatchSemaphore(value: 0)
    }
}
