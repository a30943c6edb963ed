public import StorekeeperCore
public import StorekeeperDiagnostics

/// A custom policy rule: which plans it matches and how it changes them.
public struct CustomRule: Sendable, Hashable {
    /// The rule's name, unique in the catalog.
    public var name: Located<String>
    /// What a plan must match.
    public var condition: Condition
    /// How it changes the matching plans.
    public var action: Action
    /// The rule's mapping in the source.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange

    /// Creates a rule.
    public init(name: Located<String>, condition: Condition, action: Action, location: SourceLocation) {
        self.name = name
        self.condition = condition
        self.action = action
        position = SourceRange(start: location)
    }

    /// What a plan must match; every part that is set must match.
    public struct Condition: Sendable, Hashable {
        /// The transaction state.
        public var state: Located<TransactionState>?
        /// The product type.
        public var type: Located<ProductType>?
        /// A product id, `*` matching any run of characters.
        public var product: Located<String>?
        /// The delivery model.
        public var delivery: Located<DeliveryModel>?
        /// The store's error (failed transactions).
        public var error: Located<StoreErrorCode>?
        /// The `when` mapping in the source.
        public var location: SourceLocation {
            get { position.start }
            set { position = SourceRange(start: newValue) }
        }
        /// Where it was written, compactly (no reference counting on copies).
        private var position: SourceRange

        /// Creates a condition.
        public init(state: Located<TransactionState>? = nil, type: Located<ProductType>? = nil, product: Located<String>? = nil, delivery: Located<DeliveryModel>? = nil, error: Located<StoreErrorCode>? = nil, location: SourceLocation) {
            self.state = state
            self.type = type
            self.product = product
            self.delivery = delivery
            self.error = error
            position = SourceRange(start: location)
        }
    }

    /// Where inserted steps go.
    public enum Anchor: Sendable, Hashable {
        /// Before the named step.
        case before(Located<String>)
        /// After the named step.
        case after(Located<String>)
    }

    /// How a rule changes a plan.
    public enum Action: Sendable, Hashable {
        /// `do`: the plan becomes these steps.
        case replace([Located<String>])
        /// `add`: these steps are inserted next to a step of the plan.
        case insert(Anchor, [Located<String>])
    }
}
