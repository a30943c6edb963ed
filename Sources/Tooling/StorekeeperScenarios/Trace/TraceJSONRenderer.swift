import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperSimulatedStore

/// The trace for tools: one JSON document, `format: storekeeper-simulation`,
/// `version: 1` (docs/simulate.md, "The trace").
public struct TraceJSONRenderer: Sendable {
    /// A renderer.
    public init() {}

    /// The whole report, with a trailing newline.
    public func render(_ report: SimulationReport, catalog: String) -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("format", "storekeeper-simulation"),
            ("version", 1),
            ("catalog", .string(catalog)),
            ("scenario", .string(report.scenario.file)),
        ]
        if let title = report.scenario.title { members.append(("title", .string(title))) }
        members.append(("seed", .string(String(report.scenario.seed))))
        members.append(("result", .string(report.error != nil ? "stopped" : report.passed ? "passed" : "failed")))
        members.append(("events", .array(report.events.map(event))))
        members.append(("expectations", .array(report.expectations.map(expectation))))
        if let error = report.error {
            members.append(("error", ["location": .string(error.location.description), "message": .string(error.message)]))
        }
        var output = ""
        JSONWriter(indentation: 2, inlineScalarArrays: true).write(.object(members), to: &output)
        return output + "\n"
    }

    private func event(_ event: TraceEvent) -> JSONValue {
        switch event {
        case .action(let index, let line, let text):
            return ["kind": "action", "index": .integer(index), "line": .integer(line), "action": .string(text)]
        case .launched(let device):
            return ["kind": "launch", "device": .string(device)]
        case .quit(let device):
            return ["kind": "quit", "device": .string(device)]
        case .crashed(let device, let point):
            return ["kind": "crash", "device": .string(device), "at": point.map(JSONValue.string) ?? .null]
        case .store(let report):
            var members: [(key: String, value: JSONValue)] = [
                ("kind", "store"), ("device", .string(report.device)), ("transaction", .string(report.id)),
                ("product", .string(report.productID)), ("state", .string(report.state.rawValue)),
            ]
            if let error = report.error { members.append(("error", .string(error.rawValue))) }
            if let original = report.originalID { members.append(("original", .string(original))) }
            if let charged = report.charged { members.append(("charged", .bool(charged))) }
            if let note = report.note { members.append(("note", .string(note))) }
            return .object(members)
        case .plan(let id, let situation, let steps, let rule):
            return ["kind": "plan", "transaction": .string(id), "situation": .string(situation),
                    "steps": .array(steps.map(JSONValue.string)), "rule": rule.map(JSONValue.string) ?? .null]
        case .step(let id, let step, let failure, let willRetry):
            return ["kind": "step", "transaction": .string(id), "step": .string(step), "outcome": failure == nil ? "done" : "failed",
                    "reason": failure.map(JSONValue.string) ?? .null, "retry": .bool(willRetry)]
        case .finished(let id):
            return ["kind": "finished", "transaction": .string(id)]
        case .ignored(let id, let reason):
            return ["kind": "ignored", "transaction": .string(id), "reason": .string(reason)]
        case .told(let message):
            return ["kind": "ui", "message": .string(message)]
        case .download(let report):
            return ["kind": "download", "product": .string(report.productID), "transaction": .string(report.transactionID),
                    "state": .string(report.state.rawValue), "percent": .integer(report.percent),
                    "secondsRemaining": report.secondsRemaining.map(JSONValue.integer) ?? .null,
                    "reason": report.reason.map(JSONValue.string) ?? .null]
        case .note(let text):
            return ["kind": "note", "text": .string(text)]
        case .clock(let date):
            return ["kind": "clock", "now": .string(TraceDate.format(date))]
        case .expectation(let result):
            return ["kind": "expect", "key": .string(result.key), "location": .string(result.location), "passed": .bool(result.passed),
                    "reason": result.reason.map(JSONValue.string) ?? .null]
        }
    }

    private func expectation(_ result: ExpectationResult) -> JSONValue {
        ["location": .string(result.location), "key": .string(result.key), "passed": .bool(result.passed),
         "reason": result.reason.map(JSONValue.string) ?? .null]
    }
}
