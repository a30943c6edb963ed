import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperSimulatedStore
public import Foundation

/// A scripted session against the simulated App Store: settings and the
/// actions to run, in order (docs/simulate.md).
public struct Scenario: Sendable, Hashable {
    /// The scenario file's path as given.
    public var file: String
    /// A title for the trace.
    public var title: String?
    /// Seeds transaction identifiers and download progress.
    public var seed: UInt64
    /// The simulated clock at the start.
    public var start: Date
    /// The first device's name.
    public var device: String
    /// The default `applicationUsername` of purchases and restores.
    public var user: String?
    /// Simulated download speed, in bytes per simulated second.
    public var downloadBytesPerSecond: Int64
    /// The actions.
    public var steps: [ScenarioStep]

    /// 2026-01-01T00:00:00Z, the default start.
    public static let defaultStart = Date(timeIntervalSince1970: 1_767_225_600)

    /// Creates a scenario.
    public init(file: String, title: String? = nil, seed: UInt64 = 1, start: Date = Scenario.defaultStart, device: String = "phone",
                user: String? = nil, downloadBytesPerSecond: Int64 = 10_000_000, steps: [ScenarioStep]) {
        self.file = file
        self.title = title
        self.seed = seed
        self.start = start
        self.device = device
        self.user = user
        self.downloadBytesPerSecond = downloadBytesPerSecond
        self.steps = steps
    }
}

/// One action of a scenario and where it was written.
public struct ScenarioStep: Sendable, Hashable {
    /// What to do.
    public var action: ScenarioAction
    /// Where the action starts (its list item).
    public var location: SourceLocation

    /// Creates a step.
    public init(_ action: ScenarioAction, at location: SourceLocation) {
        self.action = action
        self.location = location
    }
}
