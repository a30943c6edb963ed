public import StorekeeperCore
public import StorekeeperDiagnostics

/// How a purchase reaches the user: who delivers it, what it unlocks or
/// grants, and its associated content.
public struct Delivery: Sendable, Hashable {
    /// Built-in or server.
    public var model: Located<DeliveryModel>
    /// Declared features the purchase unlocks.
    public var unlocks: [Located<String>]
    /// Declared balances a consumable adds to, per unit bought.
    public var grants: [Grant]
    /// Associated content.
    public var content: Content? {
        get { contentBox?.value }
        set { contentBox = newValue.map(Box.init) }
    }
    private var contentBox: Box<Content>?
    /// Whether there is associated content: a check that copies nothing.
    public var hasContent: Bool { contentBox != nil }
    /// Where this delivery was written: the product, or `defaults` when inherited.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange
    /// Whether the product inherited it from `defaults`.
    public var isInherited: Bool

    /// Creates a delivery.
    public init(model: Located<DeliveryModel>, unlocks: [Located<String>] = [], grants: [Grant] = [], content: Content? = nil, location: SourceLocation, isInherited: Bool = false) {
        self.model = model
        self.unlocks = unlocks
        self.grants = grants
        contentBox = content.map(Box.init)
        position = SourceRange(start: location)
        self.isInherited = isInherited
    }
}

/// An amount of a balance that a consumable adds, per unit bought.
public struct Grant: Sendable, Hashable {
    /// The declared balance.
    public var balance: Located<String>
    /// The positive amount.
    public var amount: Located<Int>

    /// Creates a grant.
    public init(balance: Located<String>, amount: Located<Int>) {
        self.balance = balance
        self.amount = amount
    }
}

/// Associated content: files the purchase makes available.
public struct Content: Sendable, Hashable {
    /// Bundle, Apple-hosted or server.
    public var source: Located<ContentSource>
    /// A relative path inside its root.
    public var path: Located<String>?
    /// The download size.
    public var size: Located<ByteSize>?
    /// Cache or documents, for downloaded content.
    public var storage: Located<ContentStorage>?
    /// The content's mapping in the source.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange

    /// Creates content.
    public init(source: Located<ContentSource>, path: Located<String>? = nil, size: Located<ByteSize>? = nil, storage: Located<ContentStorage>? = nil, location: SourceLocation) {
        self.source = source
        self.path = path
        self.size = size
        self.storage = storage
        position = SourceRange(start: location)
    }
}
