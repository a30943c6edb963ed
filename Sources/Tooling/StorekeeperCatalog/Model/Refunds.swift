public import StorekeeperCore
public import StorekeeperDiagnostics

/// The catalog's `refunds`: what an App Store refund does where the app's
/// own ledger has a choice to make (docs/format.md#refunds).
public struct Refunds: Sendable, Hashable {
    /// What a refund takes back of a balance already spent; nil when not
    /// written (``RefundedSpendPolicy/default``, `owe`).
    public var spentBalance: Located<RefundedSpendPolicy>?
    /// The `refunds` mapping in the source.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange

    /// Creates the refund settings.
    public init(spentBalance: Located<RefundedSpendPolicy>?, location: SourceLocation) {
        self.spentBalance = spentBalance
        position = SourceRange(start: location)
    }

    /// What a refund takes back of a spent balance (`owe` when not written).
    public var effectiveSpentBalance: RefundedSpendPolicy { spentBalance?.value ?? .default }
}
