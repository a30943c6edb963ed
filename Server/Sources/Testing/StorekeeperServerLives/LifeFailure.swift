public import Foundation

/// Where a life's server disagreed with the model, or stopped it (an error status, a transport error
/// outside a planned down window): everything needed to see it and replay it.
public struct LifeFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for grouping: `entitlements`, `delivery`, `spend`, `transport`, `model`, `driver`.
    public var kind: String
    /// A short signature of the disagreement (the kind, and the members or statuses involved), for grouping.
    public var signature: String
    /// The life's seed.
    public var seed: UInt64
    /// The step at which it happened.
    public var step: Int
    /// The world's clock then.
    public var at: Date
    /// The app account concerned, if one is.
    public var account: String?
    /// What the model says (or what was expected).
    public var expected: String
    /// What the server said.
    public var got: String
    /// The command that replays the life.
    public var replay: String
    /// The life's story up to the failure.
    public var story: [String]

    /// A failure.
    public init(kind: String, signature: String, seed: UInt64, step: Int, at: Date, account: String?, expected: String, got: String,
                replay: String, story: [String]) {
        self.kind = kind
        self.signature = signature
        self.seed = seed
        self.step = step
        self.at = at
        self.account = account
        self.expected = expected
        self.got = got
        self.replay = replay
        self.story = story
    }

    /// The failure with the last `lines` lines of the story (all of them when nil, none when 0).
    public func report(storyLines lines: Int? = 40) -> String {
        let head = """
            life \(seed): \(signature) at step \(step) (\(at.formatted(.iso8601)))\(account.map { ", account \($0)" } ?? "")
              expected: \(expected)
              got:      \(got)
              replay:   \(replay)
            """
        guard lines != 0 else { return head }
        let shown = lines.map { Array(story.suffix($0)) } ?? story
        let cut = shown.count < story.count ? "    … (\(story.count - shown.count) earlier lines: replay to see them)\n" : ""
        return head + "\n  the life so far:\n" + cut + shown.map { "    " + $0 }.joined(separator: "\n")
    }

    public var description: String { report() }
}
