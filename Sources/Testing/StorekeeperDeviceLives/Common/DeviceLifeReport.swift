import Foundation

/// What one device life did, and how it failed if it did.
@dynamicMemberLookup
public struct DeviceLifeReport: Sendable {
    /// The life's seed.
    public var seed: UInt64
    /// What it did, counted (read and written through the report: `report.steps`).
    public var counts = DeviceLifeCounts()
    /// The life's story: the model's steps, StoreKit's faults and (when traced) the queues' events.
    public var story: [String] = []
    /// The failure, if the life failed.
    public var failure: DeviceLifeFailure?
    /// How long the life took.
    public var duration: Duration = .zero

    /// A report of the life of `seed`, with nothing done yet.
    public init(seed: UInt64) {
        self.seed = seed
    }

    /// A count of ``counts``, by its name.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<DeviceLifeCounts, Value>) -> Value {
        get { counts[keyPath: keyPath] }
        set { counts[keyPath: keyPath] = newValue }
    }
}

/// A device life that went wrong: where, what, both sides, the life's story and the command that replays it.
public struct DeviceLifeFailure: Error, Sendable, CustomStringConvertible {
    /// The life's seed.
    public var seed: UInt64
    /// The step at which it failed.
    public var step: Int
    /// The app account (device) concerned, if one.
    public var account: String?
    /// What went wrong.
    public var message: String
    /// The model's side, when a comparison failed.
    public var expected: String?
    /// The device's side, when a comparison failed.
    public var actual: String?
    /// The life's steps so far, one line each, and the device's faults among them.
    public var story: [String]
    /// The command that runs this life again.
    public var replay: String

    /// A failure.
    public init(seed: UInt64, step: Int, account: String?, message: String, expected: String? = nil, actual: String? = nil,
                story: [String], replay: String) {
        self.seed = seed
        self.step = step
        self.account = account
        self.message = message
        self.expected = expected
        self.actual = actual
        self.story = story
        self.replay = replay
    }

    public var description: String {
        var lines = ["life \(seed) failed at step \(step)\(account.map { " for \($0)" } ?? ""): \(message)"]
        if let expected { lines.append("  model:  \(expected)") }
        if let actual { lines.append("  device: \(actual)") }
        lines.append("  story:")
        lines += story.map { "    " + $0.replacingOccurrences(of: "\n", with: "\n    ") }
        lines.append("  replay: \(replay)")
        return lines.joined(separator: "\n")
    }
}
