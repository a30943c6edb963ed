/// A download failure armed by `fail-downloads`.
public struct DownloadFault: Sendable, Hashable {
    /// What fails.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The device ran out of space.
        case outOfSpace = "out-of-space"
        /// The network dropped.
        case networkError = "network-error"
    }

    /// What fails.
    public var kind: Kind
    /// At what percentage (0...99).
    public var percent: Int

    /// Creates a fault.
    public init(_ kind: Kind, at percent: Int) {
        self.kind = kind
        self.percent = percent
    }
}
