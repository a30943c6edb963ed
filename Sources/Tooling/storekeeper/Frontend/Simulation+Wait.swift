import Dispatch
// For `simulate`: not in the façade, which links no SQLite (see Package.swift).
import StorekeeperScenarios

extension Simulation {
    /// Runs the session on the concurrency pool and waits for it: the
    /// command is synchronous.
    func runAndWait() -> SimulationReport {
        let done = DispatchSemaphore(value: 0)
        let box = ReportBox()
        Task.detached {
            box.report = await self.run()
            done.signal()
        }
        done.wait()
        // The task signalled after storing the report.
        return box.report ?? SimulationReport(scenario: scenario, events: [], expectations: [], error: nil)
    }
}

/// Carries the report out of the session's task.
private final class ReportBox: @unchecked Sendable {
    // @unchecked: written once by the session's task before it signals, read after the wait.
    var report: SimulationReport?
}
