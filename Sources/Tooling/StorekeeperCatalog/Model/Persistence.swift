public import StorekeeperCore
public import StorekeeperDiagnostics

/// Where the record of a purchase is kept.
public struct Persistence: Sendable, Hashable {
    /// The strategy.
    public var strategy: Located<PersistenceStrategy>
    /// With user defaults or iCloud: a flag or a receipt copy; nil when not written (flag).
    public var record: Located<RecordKind>?
    /// Where this was written: the product, or `defaults` when inherited.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange
    /// Whether the product inherited it from `defaults`.
    public var isInherited: Bool

    /// Creates a persistence.
    public init(strategy: Located<PersistenceStrategy>, record: Located<RecordKind>? = nil, location: SourceLocation, isInherited: Bool = false) {
        self.strategy = strategy
        self.record = record
        position = SourceRange(start: location)
        self.isInherited = isInherited
    }

    /// What the record holds (default flag).
    public var effectiveRecord: RecordKind { record?.value ?? .flag }
}

/// How a purchase is restored.
public struct Restore: Sendable, Hashable {
    /// The policy.
    public var policy: Located<RestorePolicy>
    /// What starts a restore; nil when not written (user).
    public var trigger: Located<RestoreTrigger>?
    /// Which content is downloaded again; nil when not written (all).
    public var selection: Located<RestoreSelection>?
    /// Where this was written: the product, or `defaults` when inherited.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange
    /// Whether the product inherited it from `defaults`.
    public var isInherited: Bool

    /// Creates a restore.
    public init(policy: Located<RestorePolicy>, trigger: Located<RestoreTrigger>? = nil, selection: Located<RestoreSelection>? = nil, location: SourceLocation, isInherited: Bool = false) {
        self.policy = policy
        self.trigger = trigger
        self.selection = selection
        position = SourceRange(start: location)
        self.isInherited = isInherited
    }

    /// What starts a restore (default user).
    public var effectiveTrigger: RestoreTrigger { trigger?.value ?? .user }
    /// Which content is downloaded again (default all).
    public var effectiveSelection: RestoreSelection { selection?.value ?? .all }
}

extension Restore {
    /// Whether restoring goes through the App Store, which asks for the
    /// user's credentials: `receipt-refresh` and `restore-transactions`.
    public var asksForCredentials: Bool {
        policy.value == .receiptRefresh || policy.value == .restoreTransactions
    }
}
