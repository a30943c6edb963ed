public import StorekeeperSimulatedStore
import Foundation
import StorekeeperCore
import StorekeeperDiagnostics

/// The trace as people read it: one line per event, each action numbered
/// with its line in the scenario, then the expectations that failed.
public struct TraceTextRenderer: Sendable {
    /// A renderer.
    public init() {}

    /// The heading line of a session.
    public func heading(_ scenario: Scenario, catalog: String) -> String {
        "simulate \(catalog) with \(scenario.file)\(scenario.title.map { ": \($0)" } ?? "") (seed \(scenario.seed))\n"
    }

    /// One event's line (ending in a newline).
    public func line(_ event: TraceEvent, file: String) -> String {
        func row(_ label: String, _ text: String) -> String {
            "    " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + text + "\n"
        }
        switch event {
        case .action(let index, let line, let text):
            return "[\(index)] \(text) (\(file):\(line))\n"
        case .launched(let device):
            return row("launch", "the app starts on \(device)")
        case .quit(let device):
            return row("quit", "the app stops on \(device)")
        case .crashed(let device, let point):
            return row("CRASH", "the app dies on \(device)\(point.map { " (\($0))" } ?? "")")
        case .store(let report):
            var text = "\(report.id) \(report.productID) \(report.state.rawValue)"
            if let error = report.error { text += " (\(error.rawValue))" }
            if let charged = report.charged { text += charged ? " (charged)" : " (not charged)" }
            if let note = report.note { text += ": \(note)" }
            return row("store", text)
        case .plan(let id, let situation, let steps, let rule):
            let list = steps.isEmpty ? "(no steps)" : steps.joined(separator: ", ")
            return row("plan", "\(id) \(situation): \(list)\(rule.map { " [\($0)]" } ?? "")")
        case .step(let id, let step, let failure, let willRetry):
            guard let failure else { return row("step", "\(id) \(step): done") }
            return row("step", "\(id) \(step): FAILED, \(failure) (\(willRetry ? "waits for a retry" : "halted: tried again at the next launch"))")
        case .finished(let id):
            return row("finished", id)
        case .ignored(let id, let reason):
            return row("ignored", "\(id): \(reason)")
        case .told(let message):
            return row("ui", message)
        case .download(let report):
            return row("download", downloadText(report))
        case .note(let text):
            return row("note", text)
        case .clock(let date):
            return row("clock", TraceDate.format(date))
        case .expectation(let result):
            guard let reason = result.reason else { return row("expect", "\(result.key): ok") }
            return row("expect", "\(result.key): FAILED at \(result.location): \(reason)")
        }
    }

    /// A download's state in words, with its percentage and time left.
    public func downloadText(_ report: DownloadReport) -> String {
        var text = "\(report.productID) for \(report.transactionID): \(report.state.rawValue) \(report.percent)%"
        if let seconds = report.secondsRemaining { text += ", \(seconds) s left" }
        if let reason = report.reason { text += " (\(reason))" }
        return text
    }

    /// A progress bar for a terminal (no newline: the next one overwrites it).
    public func progressBar(_ report: DownloadReport, width: Int = 24) -> String {
        let filled = max(0, min(width, report.percent * width / 100))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "    download  [\(bar)] \(downloadText(report))"
    }

    /// The summary at the end: what failed and where, or that everything held.
    public func summary(_ report: SimulationReport) -> String {
        var text = ""
        for failure in report.failures {
            text += "\(failure.location): error: expectation failed: \(failure.key): \(failure.reason ?? "")\n"
        }
        if let error = report.error {
            text += "\(error.location): error: \(error.message)\n"
        }
        let count = report.expectations.count
        let failed = report.failures.count
        if report.passed {
            text += "passed: \(count) expectation\(count == 1 ? "" : "s") held\n"
        } else if let error = report.error {
            text += "stopped: the action at line \(error.location.line) could not run; \(failed) of \(count) expectations failed before it\n"
        } else {
            text += "failed: \(failed) of \(count) expectation\(count == 1 ? "" : "s") failed\n"
        }
        return text
    }

}
